import type { Deps } from '../../../deps.js';
import type { App } from '../../../http/app-types.js';
import { currentUser } from '../../../http/auth.js';
import { itemsOf, offsetQuery } from '../../../http/pagination.js';
import { z } from '../../../http/zod.js';
import { organizationParams } from '../memberships/schemas.js';
import { previewInvite } from './preview.js';
import {
  inviteParams,
  invitePreviewSchema,
  inviteSchema,
  inviteTokenParams,
  updateInviteBody,
  updateWorkspaceInviteBody,
  workspaceIdParams,
  workspaceInviteListItem,
  workspaceInviteSchema,
} from './schemas.js';
import * as invites from './service.js';

const tags = ['invites'];
const user = { auth: 'user' } as const;
const base = '/api/v2/users/invites';

export function registerInviteRoutes(app: App, deps: Deps): void {
  const { db } = deps;

  app.get(
    `${base}/token/:token`,
    {
      config: { auth: 'none' },
      schema: {
        tags,
        description:
          "The invitation a mailed link's token names, as the sign-up page shows it; signing up or in with `invite` set to the token accepts it.",
        params: inviteTokenParams,
        response: { 200: invitePreviewSchema },
      },
    },
    async (request) => previewInvite(db, request.params.token),
  );

  app.get(
    `${base}/organization-invite/:invite_id`,
    { config: user, schema: { tags, params: inviteParams, response: { 200: inviteSchema } } },
    async (request) => invites.getInvite(db, currentUser(request), request.params.invite_id),
  );

  app.patch(
    `${base}/organization-invite/:invite_id`,
    {
      config: user,
      schema: { tags, params: inviteParams, body: updateInviteBody, response: { 200: inviteSchema } },
    },
    async (request) => invites.updateInvite(db, currentUser(request), request.params.invite_id, request.body),
  );

  app.delete(
    `${base}/organization-invite/:invite_id`,
    { config: user, schema: { tags, params: inviteParams, response: { 204: z.null() } } },
    async (request, reply) => {
      await invites.deleteInvite(db, currentUser(request), request.params.invite_id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    `${base}/organization-invite-resend/:invite_id`,
    { config: user, schema: { tags, params: inviteParams, response: { 200: inviteSchema } } },
    async (request) => invites.resendInvite(deps, currentUser(request), request.params.invite_id),
  );

  app.patch(
    `${base}/workspace-invite/:invite_id`,
    {
      config: user,
      schema: {
        tags,
        params: inviteParams,
        body: updateWorkspaceInviteBody,
        response: { 200: workspaceInviteSchema },
      },
    },
    async (request) =>
      invites.updateWorkspaceInvite(db, currentUser(request), request.params.invite_id, request.body),
  );

  app.delete(
    `${base}/workspace-invite/:invite_id`,
    { config: user, schema: { tags, params: inviteParams, response: { 204: z.null() } } },
    async (request, reply) => {
      await invites.deleteWorkspaceInvite(db, currentUser(request), request.params.invite_id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    `${base}/organization/:organization_id`,
    {
      config: user,
      schema: {
        tags,
        params: organizationParams,
        querystring: offsetQuery,
        response: { 200: itemsOf(inviteSchema) },
      },
    },
    async (request) =>
      invites.listOrganizationInvites(
        db,
        currentUser(request),
        request.params.organization_id,
        request.query,
      ),
  );

  app.get(
    `${base}/workspace/:workspace_id`,
    {
      config: user,
      schema: {
        tags,
        params: workspaceIdParams,
        querystring: offsetQuery,
        response: { 200: itemsOf(workspaceInviteListItem) },
      },
    },
    async (request) =>
      invites.listWorkspaceInvites(db, currentUser(request), request.params.workspace_id, request.query),
  );
}
