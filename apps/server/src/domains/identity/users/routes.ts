import type { App } from '../../../http/app-types.js';
import { currentUser } from '../../../http/auth.js';
import { notFound } from '../../../http/errors.js';
import { z } from '../../../http/zod.js';
import type { IdentityDeps } from '../ports.js';
import { registerAccountRoutes } from './account-routes.js';
import { cachedCurrentUser } from './me-cache.js';
import {
  accessTokenBody,
  accessTokenResponse,
  changeDefaultOrganizationBody,
  currentUserSchema,
  membershipSchema,
  organizationMembershipSchema,
  profilePatchBody,
  profileSchema,
  scopeSchema,
  userIdParams,
  userPatchBody,
} from './schemas.js';
import { validScopes } from './scopes.js';
import * as users from './service.js';

const tags = ['users'];
const user = { auth: 'user' } as const;

export function registerUserRoutes(app: App, deps: IdentityDeps): void {
  const { db, secrets, changes } = deps;
  registerAccountRoutes(app, deps);
  const me = cachedCurrentUser(db, changes);
  for (const url of ['/api/v2/user/me', '/api/v1/users/me/']) {
    // Not async: an answer in memory is sent without a promise (Fastify sends what is returned).
    app.get(url, { config: user, schema: { tags, response: { 200: currentUserSchema } } }, (request) =>
      me(currentUser(request)),
    );
  }

  app.get(
    '/api/v2/user/me/memberships',
    { config: user, schema: { tags, response: { 200: z.array(membershipSchema) } } },
    async (request) => users.memberships(db, currentUser(request)),
  );

  app.get(
    '/api/v2/users/user/organization/memberships',
    { config: user, schema: { tags, response: { 200: z.array(organizationMembershipSchema) } } },
    async (request) => users.organizationMemberships(db, deps.identityPorts.billing, currentUser(request)),
  );

  app.get(
    '/api/v2/users/user/valid-scopes',
    { config: user, schema: { tags, response: { 200: z.array(scopeSchema) } } },
    async (request) => validScopes(db, currentUser(request)),
  );

  app.post(
    '/api/v2/users/user/change-default-organization',
    {
      config: user,
      schema: { tags, body: changeDefaultOrganizationBody, response: { 200: currentUserSchema } },
    },
    async (request) => {
      const me = currentUser(request);
      return users.currentUser(
        db,
        await users.changeDefaultOrganization(db, me, request.body.organization_id),
      );
    },
  );

  app.patch(
    '/api/v1/users/me/',
    { config: user, schema: { tags, body: userPatchBody, response: { 200: currentUserSchema } } },
    async (request) => users.currentUser(db, await users.updateMe(db, currentUser(request), request.body)),
  );

  app.patch(
    '/api/v1/users/me/profile/',
    {
      config: user,
      schema: {
        tags,
        body: profilePatchBody,
        response: { 200: profileSchema.extend({ full_name: z.string(), preferred_name: z.string() }) },
      },
    },
    async (request) => users.updateProfile(db, currentUser(request), request.body),
  );

  app.patch(
    '/api/v1/users/:id/access_token/',
    {
      config: user,
      schema: { tags, params: userIdParams, body: accessTokenBody, response: { 200: accessTokenResponse } },
    },
    async (request) => {
      const me = currentUser(request);
      if (request.params.id !== me.id) throw notFound();
      return users.setGitAccessToken(db, secrets, me, request.body.git_access_token);
    },
  );
}
