import type { Deps } from '../../deps.js';
import type { App } from '../../http/app-types.js';
import { offsetQuery } from '../../http/pagination.js';
import { detailSchema, z } from '../../http/zod.js';
import { scopeOf, workspaceOf } from '../identity/index.js';
import { approximateBody, approximatedSchema, approximatePackages, packageLevels } from './approximate.js';
import { requestUpload } from './files.js';
import * as queries from './queries.js';
import {
  aliasListQuery,
  aliasPage,
  aliasSchema,
  buildLogsQuery,
  buildLogsSchema,
  buildPage,
  buildSchema,
  createSpecBody,
  idParams,
  nameParams,
  packageUploadBody,
  packageUploadSchema,
  pkParams,
  scopedAliasQuery,
  specPage,
  specSchema,
  valuesQuery,
  workspaceParams,
} from './schemas.js';
import { createSpec } from './specs.js';

const tags = ['software'];
const user = { auth: 'user' } as const;
/** Readers of the path's workspace (`account`). */
const reader = { auth: 'user', workspace: 'read' } as const;
const base = '/api/v2/software-environment/account/:account';

export function registerSoftwareRoutes(app: App, deps: Deps): void {
  const { db } = deps;

  app.post(
    `${base}`,
    {
      config: reader,
      schema: {
        tags,
        description:
          'Creates (or finds) the spec of an environment and queues its build; the same content is built once unless `force_rebuild`.',
        params: workspaceParams,
        body: createSpecBody,
        response: { 201: aliasSchema },
      },
    },
    async (request, reply) => {
      const access = workspaceOf(request);
      const { alias } = await createSpec(deps, access, request.body);
      return reply.code(201).send(await queries.aliasDetails(db, access, { id: alias.id }));
    },
  );

  app.post(
    `${base}/package-upload`,
    {
      config: reader,
      schema: {
        tags,
        params: workspaceParams,
        body: packageUploadBody,
        response: { 200: packageUploadSchema },
      },
    },
    async (request) => requestUpload(deps, workspaceOf(request), request.body),
  );

  app.get(
    `${base}/alias`,
    {
      config: reader,
      schema: { tags, params: workspaceParams, querystring: aliasListQuery, response: { 200: aliasPage } },
    },
    async (request) => queries.listAliases(db, workspaceOf(request), request.query),
  );

  app.get(
    `${base}/alias/name/:name`,
    { config: reader, schema: { tags, params: nameParams, response: { 200: aliasSchema } } },
    async (request) => queries.aliasDetails(db, workspaceOf(request), { name: request.params.name }),
  );

  app.delete(
    `${base}/alias/name/:name`,
    { config: reader, schema: { tags, params: nameParams, response: { 200: detailSchema } } },
    async (request) => {
      const access = workspaceOf(request);
      const orphaned = await queries.deleteAlias(db, access, request.params.name);
      if (orphaned.length > 0) {
        const workspaceId = access.workspace.id;
        const store = (await deps.backends.forWorkspace(workspaceId)).builder?.archives;
        for (const location of orphaned) {
          // The alias is gone either way; an archive left behind is said, not hidden.
          try {
            if (!store?.owns(location)) throw new Error('the workspace is no longer on GCP');
            await store.remove(workspaceId, location);
          } catch (err) {
            request.log.warn(
              { err, location },
              'software environment archive of a deleted alias left in its bucket',
            );
          }
        }
      }
      return { detail: `Deleted ${request.params.name}.` };
    },
  );

  app.get(
    `${base}/alias/id/:pk`,
    { config: reader, schema: { tags, params: pkParams, response: { 200: aliasSchema } } },
    async (request) => queries.aliasDetails(db, workspaceOf(request), { id: request.params.pk }),
  );

  app.get(
    `${base}/alias/id/:id/builds`,
    {
      config: reader,
      schema: { tags, params: idParams, querystring: offsetQuery, response: { 200: buildPage } },
    },
    async (request) =>
      queries.listBuilds(db, workspaceOf(request), { aliasId: request.params.id }, request.query),
  );

  app.get(
    `${base}/alias/:pk/specs`,
    {
      config: reader,
      schema: { tags, params: pkParams, querystring: offsetQuery, response: { 200: specPage } },
    },
    async (request) => queries.aliasSpecs(db, workspaceOf(request), request.params.pk, request.query),
  );

  app.get(
    `${base}/spec/:pk`,
    { config: reader, schema: { tags, params: pkParams, response: { 200: specSchema } } },
    async (request) => queries.specDetails(db, workspaceOf(request), request.params.pk),
  );

  app.get(
    `${base}/spec/:id/builds`,
    {
      config: reader,
      schema: { tags, params: idParams, querystring: offsetQuery, response: { 200: buildPage } },
    },
    async (request) =>
      queries.listBuilds(db, workspaceOf(request), { specId: request.params.id }, request.query),
  );

  app.get(
    `${base}/spec-yaml/:id`,
    {
      config: reader,
      schema: {
        tags,
        description: 'The spec as a conda environment.yml.',
        params: idParams,
        response: { 200: z.string() },
      },
    },
    async (request, reply) =>
      reply
        .type('text/yaml; charset=utf-8')
        .header('content-disposition', 'attachment; filename="env.yaml"')
        .send(await queries.specYaml(db, workspaceOf(request), request.params.id)),
  );

  app.get(
    `${base}/build/:id`,
    { config: reader, schema: { tags, params: idParams, response: { 200: buildSchema } } },
    async (request) => queries.buildDetails(db, workspaceOf(request), request.params.id),
  );

  app.get(
    `${base}/build/logs/:id`,
    {
      config: reader,
      schema: { tags, params: idParams, querystring: buildLogsQuery, response: { 200: buildLogsSchema } },
    },
    async (request) => queries.buildLogs(db, workspaceOf(request), request.params.id, request.query),
  );

  app.get(
    `${base}/build/:id/lockfile`,
    {
      config: reader,
      schema: {
        tags,
        description: 'What the build installed, `name==version` a line: `pip install -r` recreates it.',
        params: idParams,
        response: { 200: z.string() },
      },
    },
    async (request, reply) =>
      reply
        .type('text/plain; charset=utf-8')
        .header('content-disposition', `attachment; filename="lockfile-${request.params.id}.txt"`)
        .send(await queries.buildLockfile(db, workspaceOf(request), request.params.id)),
  );

  app.get(
    '/api/v2/software-environment/alias',
    {
      config: { auth: 'user', scope: 'filters' },
      schema: { tags, querystring: scopedAliasQuery, response: { 200: aliasPage } },
    },
    async (request) => queries.scopedAliases(db, scopeOf(request), request.query),
  );

  app.get(
    '/api/v2/software-environment/values',
    {
      config: { auth: 'user', scope: 'visible' },
      schema: { tags, querystring: valuesQuery, response: { 200: z.array(z.string()) } },
    },
    async (request) => queries.filterValues(db, scopeOf(request), request.query),
  );

  app.post(
    '/api/v2/software-environment/approximate-packages',
    {
      config: { auth: 'none', csrf: false },
      schema: {
        tags,
        description: "Turns a client's scan of its environment into requirements clusters here can install.",
        body: approximateBody,
        response: { 200: z.array(approximatedSchema) },
      },
    },
    async (request) => {
      const backend = deps.backends.standard();
      const about = (await backend.builder?.interpreter()) ?? {
        version: '',
        architecture: '',
        packages: new Map(),
      };
      return approximatePackages(request.body, {
        python: about.version,
        architecture: about.architecture,
        packages: about.packages,
        pipOnly: !backend.capabilities.builds.includes('conda'),
      });
    },
  );

  app.get(
    '/api/v2/packages/',
    {
      config: user,
      schema: {
        tags,
        description: 'How closely each package must match between client and cluster.',
        querystring: z.object({ account: z.string().max(64).optional() }),
        response: {
          200: z.array(
            z.object({ name: z.string(), level: z.number().int(), source: z.enum(['pip', 'conda']) }),
          ),
        },
      },
    },
    async () => packageLevels(),
  );
}
