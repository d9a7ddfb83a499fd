import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Deps } from '../../../deps.js';
import type { App } from '../../../http/app-types.js';
import { badRequest } from '../../../http/errors.js';
import { inflateJson } from '../../../http/inflate.js';
import { parseFields } from '../../../http/validate.js';
import { z } from '../../../http/zod.js';
import { PYTHON_DIR } from '../../../paths.js';
import { callingCluster } from '../../clusters/index.js';
import { metricsAnswer, metricsBody, profileBody, spanBody, spanIdentifier } from './report-schemas.js';
import { recordMetrics, recordProfile, upsertSpan } from './reports.js';

const tags = ['analytics'];
const cluster = { auth: 'cluster', csrf: false } as const;
const COMPRESSED_TYPES = [
  'application/octet-stream',
  'application/gzip',
  'application/x-gzip',
  'application/zlib',
];

/** The cluster-facing analytics calls a scheduler reports through (the cluster's bearer token). */
export function registerReportRoutes(app: App, deps: Deps): void {
  const { db } = deps;

  app.get(
    '/api/v2/analytics/preload',
    {
      config: cluster,
      schema: { tags, description: 'Python source of the analytics preload the scheduler runs.' },
    },
    async (_request, reply) =>
      reply
        .type('text/x-python; charset=utf-8')
        .send(await readFile(path.join(PYTHON_DIR, 'cumulus', 'preloads', 'analytics.py'), 'utf8')),
  );

  app.post(
    '/api/v2/analytics/metrics',
    {
      config: cluster,
      schema: {
        tags,
        description:
          'A scheduler report: computations and their task groups (upserted), exceptions, seconds per task prefix since the last report, gauges and spans.',
        body: metricsBody,
        response: { 200: metricsAnswer },
      },
    },
    async (request) => recordMetrics(db, callingCluster(request), request.body),
  );

  // The same report as gzip (or zlib) compressed JSON bytes, as large reports are sent.
  app.register(async (scope) => {
    const compressed = scope.withTypeProvider<ZodTypeProvider>();
    compressed.addContentTypeParser(COMPRESSED_TYPES, { parseAs: 'buffer' }, (_request, body, done) =>
      done(null, body),
    );
    compressed.post(
      '/api/v2/analytics/metrics-compress',
      {
        config: cluster,
        schema: {
          tags,
          description:
            'The body of `analytics/metrics`, gzip or zlib compressed (`Content-Type: application/octet-stream`).',
          response: { 200: metricsAnswer },
        },
      },
      async (request) => {
        if (!Buffer.isBuffer(request.body)) throw badRequest('Send the report compressed.', 'PARSE_ERROR');
        const report = parseFields(metricsBody, inflateJson(request.body));
        return recordMetrics(db, callingCluster(request), report);
      },
    );
  });

  app.post(
    '/api/v2/analytics/profile',
    {
      config: cluster,
      schema: { tags, body: profileBody, response: { 200: z.object({ ok: z.boolean() }) } },
    },
    async (request) => recordProfile(db, callingCluster(request), request.body),
  );

  app.post(
    '/api/v2/analytics/span/:span_identifier',
    {
      config: cluster,
      schema: {
        tags,
        description:
          'Records (or updates) a span of the calling cluster: `start`, `stop`, `callstack`, `ident`.',
        params: spanIdentifier,
        body: spanBody,
        response: { 200: z.object({ id: z.number().int(), identifier: z.string() }) },
      },
    },
    async (request) => {
      const row = await upsertSpan(db, callingCluster(request), request.params.span_identifier, request.body);
      return { id: row.id, identifier: row.identifier };
    },
  );
}
