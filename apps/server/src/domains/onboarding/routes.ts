import type { Deps } from '../../deps.js';
import type { App } from '../../http/app-types.js';
import { currentUser } from '../../http/auth.js';
import { itemsOf, pageOf, pageQuery, pageResult } from '../../http/pagination.js';
import { z } from '../../http/zod.js';
import {
  bannerSchema,
  clientInteractionBody,
  flagBody,
  flagParams,
  flagSchema,
  flagsQuery,
  getStartedBody,
  getStartedSchema,
  interactionBody,
  interactionSchema,
  interactionTypeSchema,
  stringItems,
  userInteractionKeysQuery,
  userInteractionSchema,
  userInteractionsHelloSchema,
  userInteractionsQuery,
  userInteractionValuesQuery,
} from './schemas.js';
import * as service from './service.js';
import {
  listUserInteractions,
  userInteractionKeys,
  userInteractionsHello,
  userInteractionValues,
} from './user-interactions.js';

const tags = ['interactions'];
const user = { auth: 'user' } as const;
const staff = { auth: 'staff' } as const;

export function registerInteractionRoutes(app: App, { db }: Deps): void {
  app.get(
    '/api/v1/interaction_types/',
    {
      config: user,
      schema: { tags, querystring: pageQuery, response: { 200: pageOf(interactionTypeSchema) } },
    },
    async (request) => {
      const page = await service.listInteractionTypes(db, request.query);
      return pageResult(request, request.query, page.count, page.results);
    },
  );

  app.get(
    '/api/v1/interactions/',
    { config: user, schema: { tags, querystring: pageQuery, response: { 200: pageOf(interactionSchema) } } },
    async (request) => {
      const page = await service.listInteractions(db, currentUser(request), request.query);
      return pageResult(request, request.query, page.count, page.results);
    },
  );

  app.post(
    '/api/v1/interactions/',
    { config: user, schema: { tags, body: interactionBody, response: { 201: interactionSchema } } },
    async (request, reply) =>
      reply
        .code(201)
        .send(await service.recordInteraction(db, currentUser(request), request.body.interaction_type)),
  );

  app.get(
    '/api/v2/interactions/flag',
    { config: user, schema: { tags, querystring: flagsQuery, response: { 200: z.array(flagSchema) } } },
    async (request) => service.getFlags(db, currentUser(request), request.query.name),
  );

  app.get(
    '/api/v2/interactions/flag/:name',
    { config: user, schema: { tags, params: flagParams, response: { 200: flagSchema } } },
    async (request) => {
      const [flag] = await service.getFlags(db, currentUser(request), [request.params.name]);
      return flag!;
    },
  );

  app.put(
    '/api/v2/interactions/flag/:name',
    { config: user, schema: { tags, params: flagParams, body: flagBody, response: { 200: flagSchema } } },
    async (request) =>
      service.setFlag(db, currentUser(request).id, request.params.name, request.body.completed),
  );

  app.get(
    '/api/v2/interactions/get-started',
    { config: user, schema: { tags, response: { 200: getStartedSchema } } },
    async (request) => service.getStarted(db, currentUser(request)),
  );

  app.put(
    '/api/v2/interactions/get-started',
    { config: user, schema: { tags, body: getStartedBody, response: { 200: getStartedSchema } } },
    async (request) => service.updateGetStarted(db, currentUser(request), request.body),
  );

  app.post(
    '/api/v2/interactions/interaction',
    {
      config: user,
      schema: { tags, body: clientInteractionBody, response: { 201: z.object({ id: z.number().int() }) } },
    },
    async (request, reply) =>
      reply.code(201).send(await service.recordClientInteraction(db, currentUser(request), request.body)),
  );

  // What users did, for staff: the reports of `interactions/interaction`, filtered.
  app.get(
    '/api/v2/interactions/user-interactions',
    {
      config: staff,
      schema: {
        tags,
        description:
          'Staff only: client interactions, newest first, with their user, workspace and organization.',
        querystring: userInteractionsQuery,
        response: { 200: itemsOf(userInteractionSchema) },
      },
    },
    async (request) => listUserInteractions(db, request.query),
  );

  app.get(
    '/api/v2/interactions/user-interactions/hello',
    { config: staff, schema: { tags, response: { 200: userInteractionsHelloSchema } } },
    async (request) => userInteractionsHello(db, currentUser(request).username),
  );

  app.get(
    '/api/v2/interactions/user-interactions/keys',
    {
      config: staff,
      schema: { tags, querystring: userInteractionKeysQuery, response: { 200: stringItems } },
    },
    async (request) => userInteractionKeys(request.query.query),
  );

  app.get(
    '/api/v2/interactions/user-interactions/key/values',
    {
      config: staff,
      schema: { tags, querystring: userInteractionValuesQuery, response: { 200: stringItems } },
    },
    async (request) => userInteractionValues(db, request.query),
  );

  app.get(
    '/api/v1/banners',
    {
      config: user,
      schema: { tags: ['banners'], querystring: pageQuery, response: { 200: pageOf(bannerSchema) } },
    },
    async (request) => {
      const page = await service.activeBanners(db, request.query);
      return pageResult(request, request.query, page.count, page.results);
    },
  );
}
