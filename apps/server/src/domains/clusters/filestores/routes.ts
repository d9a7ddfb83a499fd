import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { FastifyContextConfig, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Deps } from '../../../deps.js';
import type { App } from '../../../http/app-types.js';
import { ApiError, badRequest, notFound } from '../../../http/errors.js';
import { announcedSize } from '../../../http/uploads.js';
import { z } from '../../../http/zod.js';
import { receiveFile } from '../../../lib/receive-file.js';
import { numericParam } from '../../identity/index.js';
import { fileOf, linkValid, MAX_FILE_BYTES } from './files.js';
import {
  attachBody,
  attachmentsAnswer,
  blobQuery,
  blobsAnswer,
  clusterParams,
  directionParams,
  filestoresAnswer,
  fsParams,
  listBody,
  nameParams,
  nameQuery,
  signedUrlsAnswer,
  signedUrlsBody,
  statusParams,
  vmParams,
} from './schemas.js';
import * as service from './service.js';

const tags = ['filestores'];
// The client (a user's credentials) and instances (their cluster's token) make these calls.
// A user's call resolves what it names (http/access.ts); an instance's is its cluster's (service.ts).
const either = { auth: 'user-or-cluster', csrf: false } as const;
const base = '/api/v2/filestore';
const badLink = () =>
  new ApiError(403, {
    detail: 'This file link is not valid or has expired: ask for a new one.',
    code: 'BAD_SIGNATURE',
  });

export function registerFilestoreRoutes(app: App, deps: Deps): void {
  const { db } = deps;
  /** A user's call: the workspace of the store the path's `fs_id` names (a store they cannot see is a 404). */
  const ofStore = {
    ...either,
    workspace: {
      key: (request) => service.storeWorkspace(db, request, numericParam(request, 'fs_id')),
      notFound: () => notFound('Filestore not found.'),
    },
  } as const satisfies FastifyContextConfig;
  /** A user's call: the workspace it names (`workspace`, default the user's own). */
  const named = (slugOf: (request: FastifyRequest) => string | null | undefined) =>
    ({
      ...either,
      workspace: { key: (request) => service.namedWorkspace(request, slugOf(request)) },
    }) as const satisfies FastifyContextConfig;

  app.post(
    `${base}/list`,
    {
      config: named((request) => (request.body as { workspace?: string | null }).workspace),
      schema: {
        tags,
        description: 'Gets or creates stores by name.',
        body: listBody,
        response: { 200: filestoresAnswer },
      },
    },
    async (request) => service.listOrCreate(db, service.callerOf(request), request.body),
  );

  app.get(
    `${base}/name/:name`,
    {
      config: named((request) => (request.query as { workspace?: string }).workspace),
      schema: { tags, params: nameParams, querystring: nameQuery, response: { 200: filestoresAnswer } },
    },
    async (request) => service.byName(db, service.callerOf(request), request.params.name),
  );

  app.get(
    `${base}/cluster/:cluster_id`,
    {
      config: {
        ...either,
        cluster: {
          key: (request) => (service.isUserCall(request) ? numericParam(request, 'cluster_id') : null),
        },
      },
      schema: { tags, params: clusterParams, response: { 200: attachmentsAnswer } },
    },
    async (request) => service.clusterAttachments(db, service.callerOf(request), request.params.cluster_id),
  );

  app.get(
    `${base}/vm/:vm_role`,
    {
      config: either,
      schema: {
        tags,
        description: "The calling instance's attachments.",
        params: vmParams,
        response: { 200: attachmentsAnswer },
      },
    },
    async (request) => service.vmAttachments(db, service.callerOf(request)),
  );

  app.post(
    `${base}/attach`,
    {
      config: {
        ...either,
        cluster: {
          key: (request) =>
            service.isUserCall(request) ? (request.body as { cluster_id: number }).cluster_id : null,
        },
      },
      schema: { tags, body: attachBody, response: { 200: attachmentsAnswer } },
    },
    async (request) => service.attach(db, service.callerOf(request), request.body),
  );

  app.post(
    `${base}/fs/:fs_id/status/:action`,
    {
      config: either,
      schema: { tags, params: statusParams, response: { 200: z.object({ complete: z.boolean() }) } },
    },
    async (request) =>
      service.syncStatus(db, service.callerOf(request), request.params.fs_id, request.params.action),
  );

  app.post(
    `${base}/fs/:fs_id/signed-urls/:direction`,
    {
      config: ofStore,
      schema: {
        tags,
        description:
          'Expiring links, one per path, that Cumulus serves; `existing` says what the store has already.',
        params: directionParams,
        body: signedUrlsBody,
        response: { 200: signedUrlsAnswer },
      },
    },
    async (request) =>
      service.signedUrls(
        deps,
        service.callerOf(request),
        request.params.fs_id,
        request.params.direction,
        request.body.paths,
      ),
  );

  app.get(
    `${base}/fs/:fs_id/download-with-urls`,
    { config: ofStore, schema: { tags, params: fsParams, response: { 200: blobsAnswer } } },
    async (request) => service.downloadWithUrls(deps, service.callerOf(request), request.params.fs_id),
  );

  app.post(
    `${base}/fs/:fs_id/clear`,
    { config: ofStore, schema: { tags, params: fsParams, response: { 200: z.object({ ok: z.boolean() }) } } },
    async (request) => service.clear(deps, service.callerOf(request), request.params.fs_id),
  );

  app.get(
    `${base}/blob/:fs_id/download`,
    {
      config: { auth: 'none', csrf: false },
      schema: {
        tags,
        description: 'A file of a store, at the link `signed-urls` or `download-with-urls` gave.',
        params: fsParams,
        querystring: blobQuery,
      },
    },
    async (request, reply) => {
      const { fs_id: fsId } = request.params;
      if (!linkValid(deps.config.secret, fsId, 'download', request.query)) throw badLink();
      const file = fileOf(deps.config.dataDir, fsId, request.query.path);
      const info = file ? await stat(file).catch(() => null) : null;
      if (!file || !info?.isFile()) throw notFound(`${request.query.path} is not in this filestore.`);
      return reply
        .type('application/octet-stream')
        .header('content-length', info.size)
        .send(createReadStream(file));
    },
  );

  // Uploads come with their signed link and no credentials, streamed to disk as they arrive.
  app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    scope.put(
      `${base}/blob/:fs_id/upload`,
      {
        config: { auth: 'none', csrf: false },
        bodyLimit: MAX_FILE_BYTES,
        schema: {
          tags,
          description:
            'Receives a file at the link `signed-urls/upload` gave (any content type, e.g. binary/octet-stream).',
          params: fsParams,
          querystring: blobQuery,
          response: { 200: z.object({ size: z.number().int() }) },
        },
      },
      async (request) => {
        const { fs_id: fsId } = request.params;
        if (!linkValid(deps.config.secret, fsId, 'upload', request.query)) throw badLink();
        const file = fileOf(deps.config.dataDir, fsId, request.query.path);
        if (!file) throw badLink();
        const body = request.body as NodeJS.ReadableStream | undefined;
        if (!body || typeof body.pipe !== 'function') throw badRequest('Send the file as the body.');
        // Checked against what the sender announced before it takes the path: a cut-off upload
        // is not kept, and a whole file there before stays.
        const size = await receiveFile(body, file, {
          maxBytes: MAX_FILE_BYTES,
          tooLarge: () => new ApiError(413, { detail: 'The file is too large.' }),
          announced: announcedSize(request),
        });
        return { size };
      },
    );
  });
}
