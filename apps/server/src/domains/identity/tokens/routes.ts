import type { App } from '../../../http/app-types.js';
import { currentUser } from '../../../http/auth.js';
import { pageOf, pageQuery, pageResult } from '../../../http/pagination.js';
import type { IdentityDeps } from '../ports.js';
import {
  activateTokenBody,
  createdTokenSchema,
  identifierParams,
  idParams,
  pendingTokenBody,
  pendingTokenSchema,
  tokenCreateBody,
  tokenSchema,
} from './schemas.js';
import * as tokens from './service.js';

const tags = ['api-tokens'];

export function registerTokenRoutes(app: App, { db, identityPorts }: IdentityDeps): void {
  app.post(
    '/api/v1/api-tokens/',
    {
      config: { auth: 'user' },
      schema: { tags, body: tokenCreateBody, response: { 201: createdTokenSchema } },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await tokens.createToken(db, currentUser(request), request.body, identityPorts.onboarding)),
  );

  app.get(
    '/api/v1/api-tokens/',
    {
      config: { auth: 'user' },
      schema: { tags, querystring: pageQuery, response: { 200: pageOf(tokenSchema) } },
    },
    async (request) => {
      const page = await tokens.listTokens(db, currentUser(request), request.query);
      return pageResult(request, request.query, page.count, page.results);
    },
  );

  app.delete(
    '/api/v1/api-tokens/:identifier/revoke',
    { config: { auth: 'user' }, schema: { tags, params: identifierParams, response: { 200: tokenSchema } } },
    async (request) => tokens.revokeToken(db, currentUser(request), request.params.identifier),
  );

  app.patch(
    '/api/v1/api-tokens/:id/activate/',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        description:
          "Terminal sign-in, step 2: the signed-in user approves a pending token by typing the terminal's code.",
        params: idParams,
        body: activateTokenBody,
        response: { 200: tokenSchema },
      },
    },
    async (request) =>
      tokens.activateToken(
        db,
        identityPorts.onboarding,
        currentUser(request),
        request.params.id,
        request.body.user_code,
      ),
  );

  app.post(
    '/api/v1/api-tokens-no-user/',
    {
      config: { auth: 'none' },
      schema: { tags, body: pendingTokenBody, response: { 201: pendingTokenSchema } },
    },
    async (request, reply) => reply.code(201).send(await tokens.createPendingToken(db, request.body.label)),
  );
}
