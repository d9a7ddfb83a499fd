import type { Deps } from '../../../deps.js';
import type { App } from '../../../http/app-types.js';
import { currentUser } from '../../../http/auth.js';
import { itemsOf, offsetQuery } from '../../../http/pagination.js';
import { z } from '../../../http/zod.js';
import {
  createWorkspaceBody,
  membershipParams,
  updateWorkspaceBody,
  updateWorkspaceMembershipBody,
  workspaceIdParams,
  workspaceListQuery,
  workspaceLookupQuery,
  workspaceMemberSchema,
  workspaceParams,
  workspaceSchema,
} from './schemas.js';
import * as workspaces from './service.js';

const tags = ['workspaces'];
const user = { auth: 'user' } as const;
const base = '/api/v2/users/workspaces';

export function registerWorkspaceRoutes(app: App, { db }: Deps): void {
  app.post(
    `${base}/`,
    { config: user, schema: { tags, body: createWorkspaceBody, response: { 201: workspaceSchema } } },
    async (request, reply) =>
      reply.code(201).send(await workspaces.createWorkspace(db, currentUser(request), request.body)),
  );

  app.get(
    `${base}/`,
    {
      config: user,
      schema: { tags, querystring: workspaceListQuery, response: { 200: itemsOf(workspaceSchema) } },
    },
    async (request) => workspaces.listWorkspaces(db, currentUser(request), request.query),
  );

  app.get(
    `${base}/details`,
    {
      config: user,
      schema: {
        tags,
        description: 'One workspace by workspace_slug, workspace_id or workspace_name (the first given).',
        querystring: workspaceLookupQuery,
        response: { 200: workspaceSchema },
      },
    },
    async (request) => workspaces.workspaceDetails(db, currentUser(request), request.query),
  );

  app.patch(
    `${base}/details/:workspace_id`,
    {
      config: user,
      schema: {
        tags,
        params: workspaceIdParams,
        body: updateWorkspaceBody,
        response: { 200: workspaceSchema },
      },
    },
    async (request) =>
      workspaces.updateWorkspace(
        db,
        currentUser(request),
        request.params.workspace_id,
        request.body.credit_limit,
      ),
  );

  app.patch(
    `${base}/membership/:membership_id`,
    {
      config: user,
      schema: {
        tags,
        params: membershipParams,
        body: updateWorkspaceMembershipBody,
        response: { 200: workspaceMemberSchema },
      },
    },
    async (request) =>
      workspaces.updateWorkspaceMembership(
        db,
        currentUser(request),
        request.params.membership_id,
        request.body,
      ),
  );

  app.delete(
    `${base}/membership/:membership_id`,
    { config: user, schema: { tags, params: membershipParams, response: { 204: z.null() } } },
    async (request, reply) => {
      await workspaces.deleteWorkspaceMembership(db, currentUser(request), request.params.membership_id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/v2/workspaces/:workspace/members',
    {
      config: user,
      schema: {
        tags,
        params: workspaceParams,
        querystring: offsetQuery,
        response: { 200: itemsOf(workspaceMemberSchema) },
      },
    },
    async (request) =>
      workspaces.workspaceMembers(db, currentUser(request), request.params.workspace, request.query),
  );
}
