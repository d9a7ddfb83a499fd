import { createReadStream } from 'node:fs';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { agentBundle } from '../../compute/agent-bundle.js';
import type { Deps } from '../../deps.js';
import type { App } from '../../http/app-types.js';
import { ApiError, badRequest } from '../../http/errors.js';
import { announcedSize } from '../../http/uploads.js';
import { id, text, z } from '../../http/zod.js';
import { Signer } from '../../lib/crypto.js';
import { receiveFile } from '../../lib/receive-file.js';
import { phoneHome } from './facing-schemas.js';
import * as builds from './remote-builds.js';
import { callingBuild } from './token.js';

const tags = ['cluster-facing'];
const software = { auth: 'software', csrf: false } as const;
const facing = '/api/v2/cluster_facing/software-environment';
const buildParams = z.object({ build: id });
/** How long an archive upload link works. */
const UPLOAD_LINK_SECONDS = 6 * 3600;
const MAX_ARCHIVE_BYTES = 16 * 2 ** 30;

const specAnswer = z.object({
  build_id: z.number().int(),
  kind: z.enum(['pip', 'conda', 'container']),
  requirements: z.array(z.string()),
  wheels: z.array(
    z.object({ id: z.number().int(), file_name: z.string(), sha256: z.string().nullable(), url: z.string() }),
  ),
  lockfile: z.string().nullable(),
  container_uri: z.string().nullable(),
  raw_conda: z.record(z.string(), z.unknown()).nullable(),
});

const archiveSigner = (secret: string) => new Signer(secret, 'build-archive');

/**
 * The calls a machine running a software build makes, with that build's token (api.md section 6:
 * software auth): its spec, its phone-home (log lines, state, result), an upload link for the
 * environment's archive, and downloads of the wheels it installs and of the archive.
 */
export function registerBuildFacingRoutes(app: App, deps: Deps): void {
  const { db, config } = deps;
  const wheelUrl = (buildId: number, fileId: number) =>
    `${config.publicUrl}${facing}/build/${buildId}/download?file_id=${fileId}`;

  app.get(
    `${facing}/spec`,
    {
      config: software,
      schema: {
        tags,
        description: "The spec of the calling machine's build.",
        response: { 200: specAnswer },
      },
    },
    async (request) => builds.specFor(deps, callingBuild(request), wheelUrl),
  );

  app.get(
    `${facing}/agent.tar.gz`,
    {
      config: software,
      schema: {
        tags,
        description:
          'The build agent (the `cumulus` Python package) as a gzip tar archive: what a build machine fetches at boot to run `python -m cumulus.agent.build`.',
      },
    },
    async (request, reply) => {
      callingBuild(request);
      return reply.type('application/gzip').send(await agentBundle());
    },
  );

  app.get(
    `${facing}/build/:build/spec`,
    { config: software, schema: { tags, params: buildParams, response: { 200: specAnswer } } },
    async (request) => builds.specFor(deps, callingBuild(request, request.params.build), wheelUrl),
  );

  app.patch(
    `${facing}/build/:build`,
    {
      config: software,
      schema: {
        tags,
        description:
          'Phone-home of a build machine: log lines to append, its state, and once built its lockfile.',
        params: buildParams,
        body: phoneHome,
        response: { 200: z.object({ ok: z.boolean() }) },
      },
    },
    async (request) => {
      await builds.phoneHome(db, callingBuild(request, request.params.build), request.body);
      return { ok: true };
    },
  );

  app.post(
    `${facing}/build/:build/start-upload`,
    {
      config: software,
      schema: {
        tags,
        description:
          "A signed link to PUT the built environment's archive to (gzip tar): a V4 signed URL into the workspace's Cloud Storage bucket on vm_gcp with a service account key, else a link to this server.",
        params: buildParams,
        response: { 200: z.object({ upload_url: z.string(), expires_at: z.string() }) },
      },
    },
    async (request) => {
      const buildId = callingBuild(request, request.params.build);
      await builds.assertBuilding(db, buildId);
      const stored = await builds.storeUpload(deps, buildId);
      if (stored) return { upload_url: stored.url, expires_at: stored.expiresAt.toISOString() };
      const expires = Math.floor(Date.now() / 1000) + UPLOAD_LINK_SECONDS;
      const signature = archiveSigner(config.secret).sign(`${buildId}:${expires}`);
      return {
        upload_url: `${config.publicUrl}${facing}/build/${buildId}/archive?expires=${expires}&signature=${signature}`,
        expires_at: new Date(expires * 1000).toISOString(),
      };
    },
  );

  app.get(
    `${facing}/build/:build/download`,
    {
      config: software,
      schema: {
        tags,
        description: "A wheel the build installs (`file_id`), or without it the build's environment archive.",
        params: buildParams,
        querystring: z.object({ file_id: id.optional() }),
        response: { 200: z.any().describe('The file.') },
      },
    },
    async (request, reply) => {
      const buildId = callingBuild(request, request.params.build);
      const file = await builds.downloadable(deps, buildId, request.query.file_id);
      return reply
        .type(file.type)
        .header('content-disposition', `attachment; filename="${file.name}"`)
        .send(createReadStream(file.path));
    },
  );

  // The archive comes with its signed link and no credentials, streamed to disk as it arrives.
  app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    scope.addContentTypeParser(['application/gzip', 'application/octet-stream'], (_request, payload, done) =>
      done(null, payload),
    );
    scope.put(
      `${facing}/build/:build/archive`,
      {
        config: { auth: 'none', csrf: false },
        schema: {
          tags,
          description: "Receives the build's environment archive at the link start-upload answered.",
          params: buildParams,
          querystring: z.object({ expires: z.coerce.number().int().min(0), signature: text(100).min(1) }),
          response: { 200: z.object({ size_bytes: z.number().int() }) },
        },
      },
      async (request) => {
        const { build: buildId } = request.params;
        const { expires, signature } = request.query;
        if (
          !archiveSigner(config.secret).verify(`${buildId}:${expires}`, signature) ||
          expires < Date.now() / 1000
        )
          throw new ApiError(403, {
            detail: 'This upload link is not valid or has expired: ask for a new one.',
            code: 'BAD_SIGNATURE',
          });
        await builds.assertBuilding(db, buildId);
        const body = request.body as NodeJS.ReadableStream | undefined;
        if (!body || typeof body.pipe !== 'function')
          throw badRequest('Send the archive as the body (Content-Type: application/gzip).');
        const target = builds.archivePath(config.dataDir, buildId);
        const size = await receiveFile(body, target, {
          maxBytes: MAX_ARCHIVE_BYTES,
          tooLarge: () => new Error('The archive is too large.'),
          announced: announcedSize(request),
        });
        await builds.archiveReceived(db, buildId, target, size);
        return { size_bytes: size };
      },
    );
  });
}
