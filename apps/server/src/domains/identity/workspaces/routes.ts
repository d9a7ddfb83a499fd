import type { FastifyContextConfig } from 'fastify';
import type { App } from '../../../http/app-types.js';
import { itemsOf, offsetQuery } from '../../../http/pagination.js';
import { z } from '../../../http/zod.js';
import { MESSAGES } from '../access/messages.js';
import { numericParam, organizationOf, scopeOf, workspaceOf } from '../access/resolve.js';
import type { IdentityDeps } from '../ports.js';
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

type WorkspaceLookup = z.infer<typeof workspaceLookupQuery>;

const tags = ['workspaces'];
const base = '/api/v2/users/workspaces';

export function registerWorkspaceRoutes(app: App, { db, identityPorts }: IdentityDeps): void {
  /** Admins of the workspace of the membership the path names. */
  const ofMembership = {
    auth: 'user',
    workspace: {
      need: 'admin',
      key: async (request) => ({
        id: (await workspaces.findMembership(db, numericParam(request, 'membership_id'))).workspaceId,
      }),
    },
  } as const satisfies FastifyContextConfig;

  app.post(
    `${base}/`,
    {
      config: {
        auth: 'user',
        organization: {
          need: 'admin',
          key: (request) => (request.body as { organization_id: number }).organization_id,
          adminMessage: MESSAGES.addWorkspaces,
        },
      },
      schema: { tags, body: createWorkspaceBody, response: { 201: workspaceSchema } },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await workspaces.createWorkspace(db, identityPorts.plans, organizationOf(request), request.body),
        ),
  );

  app.get(
    `${base}/`,
    {
      config: {
        auth: 'user',
        // The organization's workspaces when the query names one, else every workspace the caller reads.
        organization: {
          need: 'read',
          key: (request) => (request.query as { organization_id?: number }).organization_id ?? null,
        },
        scope: 'readable',
      },
      schema: { tags, querystring: workspaceListQuery, response: { 200: itemsOf(workspaceSchema) } },
    },
    async (request) =>
      workspaces.listWorkspaces(
        db,
        { organization: request.access.organization, scope: scopeOf(request) },
        request.query,
      ),
  );

  app.get(
    `${base}/details`,
    {
      config: {
        auth: 'user',
        workspace: { key: (request) => workspaces.workspaceLookupKey(request.query as WorkspaceLookup) },
      },
      schema: {
        tags,
        description: 'One workspace by workspace_slug, workspace_id or workspace_name (the first given).',
        querystring: workspaceLookupQuery,
        response: { 200: workspaceSchema },
      },
    },
    async (request) => workspaces.workspaceDetails(db, workspaceOf(request)),
  );

  app.patch(
    `${base}/details/:workspace_id`,
    {
      config: {
        auth: 'user',
        workspace: { need: 'admin', key: (request) => ({ id: numericParam(request, 'workspace_id') }) },
      },
      schema: {
        tags,
        params: workspaceIdParams,
        body: updateWorkspaceBody,
        response: { 200: workspaceSchema },
      },
    },
    async (request) => workspaces.updateWorkspace(db, workspaceOf(request), request.body.credit_limit),
  );

  app.patch(
    `${base}/membership/:membership_id`,
    {
      config: ofMembership,
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
        workspaceOf(request),
        request.params.membership_id,
        request.body,
      ),
  );

  app.delete(
    `${base}/membership/:membership_id`,
    { config: ofMembership, schema: { tags, params: membershipParams, response: { 204: z.null() } } },
    async (request, reply) => {
      await workspaces.deleteWorkspaceMembership(db, workspaceOf(request), request.params.membership_id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/v2/workspaces/:workspace/members',
    {
      config: { auth: 'user', workspace: 'read' },
      schema: {
        tags,
        params: workspaceParams,
        querystring: offsetQuery,
        response: { 200: itemsOf(workspaceMemberSchema) },
      },
    },
    async (request) => workspaces.workspaceMembers(db, workspaceOf(request), request.query),
  );
}
