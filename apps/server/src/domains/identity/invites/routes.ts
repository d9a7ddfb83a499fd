import type { FastifyContextConfig } from 'fastify';
import type { Deps } from '../../../deps.js';
import type { App } from '../../../http/app-types.js';
import { currentUser } from '../../../http/auth.js';
import { itemsOf, offsetQuery } from '../../../http/pagination.js';
import { z } from '../../../http/zod.js';
import { numericParam, organizationOf, workspaceOf } from '../access/resolve.js';
import { organizationParams } from '../memberships/schemas.js';
import { acceptInviteByToken } from './accept.js';
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
const base = '/api/v2/users/invites';

export function registerInviteRoutes(app: App, deps: Deps): void {
  const { db } = deps;
  /** The caller's standing in the organization of the invite the path names. */
  const ofInvite = (need: 'read' | 'members') =>
    ({
      auth: 'user',
      organization: {
        need,
        key: async (request) =>
          (await invites.findInvite(db, numericParam(request, 'invite_id'))).organizationId,
      },
    }) as const satisfies FastifyContextConfig;
  /** Admins of the workspace of the workspace invite the path names. */
  const ofWorkspaceInvite = {
    auth: 'user',
    workspace: {
      need: 'admin',
      key: async (request) => ({
        id: (await invites.findWorkspaceInvite(db, numericParam(request, 'invite_id'))).row.workspaceId,
      }),
    },
  } as const satisfies FastifyContextConfig;

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

  app.post(
    `${base}/token/:token/accept`,
    {
      config: { auth: 'user' },
      schema: {
        tags,
        description:
          "Accepts the invitation a mailed link's token names for the signed-in user, who opened the link while signed in (as signing in through it would); answers what was joined. Unknown or expired tokens are not found.",
        params: inviteTokenParams,
        response: { 200: invitePreviewSchema },
      },
    },
    async (request) => {
      const joined = await previewInvite(db, request.params.token);
      await db.transaction((tx) => acceptInviteByToken(tx, currentUser(request), request.params.token));
      return joined;
    },
  );

  app.get(
    `${base}/organization-invite/:invite_id`,
    { config: ofInvite('read'), schema: { tags, params: inviteParams, response: { 200: inviteSchema } } },
    async (request) => invites.getInvite(db, organizationOf(request), request.params.invite_id),
  );

  app.patch(
    `${base}/organization-invite/:invite_id`,
    {
      config: ofInvite('members'),
      schema: { tags, params: inviteParams, body: updateInviteBody, response: { 200: inviteSchema } },
    },
    async (request) =>
      invites.updateInvite(db, organizationOf(request), request.params.invite_id, request.body),
  );

  app.delete(
    `${base}/organization-invite/:invite_id`,
    { config: ofInvite('members'), schema: { tags, params: inviteParams, response: { 204: z.null() } } },
    async (request, reply) => {
      await invites.deleteInvite(db, organizationOf(request), request.params.invite_id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    `${base}/organization-invite-resend/:invite_id`,
    { config: ofInvite('members'), schema: { tags, params: inviteParams, response: { 200: inviteSchema } } },
    async (request) => invites.resendInvite(deps, organizationOf(request), request.params.invite_id),
  );

  app.patch(
    `${base}/workspace-invite/:invite_id`,
    {
      config: ofWorkspaceInvite,
      schema: {
        tags,
        params: inviteParams,
        body: updateWorkspaceInviteBody,
        response: { 200: workspaceInviteSchema },
      },
    },
    async (request) =>
      invites.updateWorkspaceInvite(db, workspaceOf(request), request.params.invite_id, request.body),
  );

  app.delete(
    `${base}/workspace-invite/:invite_id`,
    { config: ofWorkspaceInvite, schema: { tags, params: inviteParams, response: { 204: z.null() } } },
    async (request, reply) => {
      await invites.deleteWorkspaceInvite(db, workspaceOf(request), request.params.invite_id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    `${base}/organization/:organization_id`,
    {
      config: { auth: 'user', organization: 'read' },
      schema: {
        tags,
        params: organizationParams,
        querystring: offsetQuery,
        response: { 200: itemsOf(inviteSchema) },
      },
    },
    async (request) => invites.listOrganizationInvites(db, organizationOf(request), request.query),
  );

  app.get(
    `${base}/workspace/:workspace_id`,
    {
      config: {
        auth: 'user',
        workspace: { key: (request) => ({ id: numericParam(request, 'workspace_id') }) },
      },
      schema: {
        tags,
        params: workspaceIdParams,
        querystring: offsetQuery,
        response: { 200: itemsOf(workspaceInviteListItem) },
      },
    },
    async (request) => invites.listWorkspaceInvites(db, workspaceOf(request), request.query),
  );
}
