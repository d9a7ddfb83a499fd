import { createReadStream } from 'node:fs';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Deps } from '../../deps.js';
import type { App } from '../../http/app-types.js';
import { notFound } from '../../http/errors.js';
import { announcedSize } from '../../http/uploads.js';
import { id, text, z } from '../../http/zod.js';
import { workspaceOf } from '../identity/index.js';
import { indexFiles, indexPage, noWheel, packageFilePath, receiveUpload } from './files.js';

const tags = ['software'];
/** What pip sends: the API token as the password of HTTP Basic credentials (`https://__token__:<token>@...`). */
const reader = { auth: 'user', basicAuth: true, workspace: 'read' } as const;

/**
 * The workspace's package index (PEP 503) of uploaded wheels, served by Cumulus itself, and the
 * signed upload links of `package-upload`. `pip install --extra-index-url
 * https://__token__:<api token>@<server>/api/v2/packages/index/<workspace>/simple/ <project>`.
 */
export function registerPackageIndexRoutes(app: App, deps: Deps): void {
  const { db } = deps;
  const index = '/api/v2/packages/index/:account';

  app.get(
    `${index}/simple/`,
    {
      config: reader,
      schema: {
        tags,
        description: 'PEP 503: the projects of the workspace index.',
        params: z.object({ account: text(64) }),
        response: { 200: z.string() },
      },
    },
    async (request, reply) => {
      const { workspace } = workspaceOf(request);
      const projects = [...new Set((await indexFiles(db, workspace.id)).map((f) => f.project))];
      return reply.type('text/html; charset=utf-8').send(
        indexPage(
          `Packages of ${workspace.slug}`,
          projects.map((p) => ({ href: `${p}/`, text: p })),
        ),
      );
    },
  );

  app.get(
    `${index}/simple/:project/`,
    {
      config: reader,
      schema: {
        tags,
        description: "PEP 503: a project's files, with their sha256.",
        params: z.object({ account: text(64), project: text(200).min(1) }),
        response: { 200: z.string() },
      },
    },
    async (request, reply) => {
      const { workspace } = workspaceOf(request);
      const files = await indexFiles(db, workspace.id, request.params.project);
      if (files.length === 0) throw notFound(`No project ${request.params.project} in this index.`);
      const links = files.map((f) => ({
        href: `../../files/${f.id}/${encodeURIComponent(f.fileName)}${f.sha256 ? `#sha256=${f.sha256}` : ''}`,
        text: f.fileName,
      }));
      return reply
        .type('text/html; charset=utf-8')
        .send(indexPage(`Links for ${request.params.project}`, links));
    },
  );

  app.get(
    `${index}/files/:id/:file_name`,
    {
      config: reader,
      schema: {
        tags,
        params: z.object({ account: text(64), id, file_name: text(300) }),
        response: { 200: z.any().describe('The wheel.') },
      },
    },
    async (request, reply) => {
      const { workspace } = workspaceOf(request);
      const file = (await indexFiles(db, workspace.id)).find(
        (f) => f.id === request.params.id && f.fileName === request.params.file_name,
      );
      if (!file) throw notFound('Package file not found.');
      return reply
        .type('application/octet-stream')
        .header('content-length', String(file.sizeBytes ?? ''))
        .send(createReadStream(packageFilePath(deps.config.dataDir, file)));
    },
  );

  // Uploads carry their own signed link and no credentials; their bodies are the wheel's bytes.
  app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    scope.addContentTypeParser(
      ['application/octet-stream', 'binary/octet-stream'],
      (_request, payload, done) => done(null, payload),
    );
    scope.put(
      '/api/v2/software-environment/upload/:id',
      {
        config: { auth: 'none', csrf: false },
        schema: {
          tags,
          description: 'Receives a wheel at the signed link `package-upload` answered (Content-MD5 checked).',
          params: z.object({ id }),
          querystring: z.object({ expires: z.coerce.number().int().min(0), signature: text(100).min(1) }),
          response: { 200: z.object({ detail: z.string() }) },
        },
      },
      async (request) => {
        const md5 = request.headers['content-md5'];
        // The link is checked before the body: without a valid one nothing about it matters.
        await receiveUpload(
          deps,
          request.params.id,
          request.query,
          typeof md5 === 'string' ? md5 : undefined,
          () => {
            const body = request.body as NodeJS.ReadableStream | undefined;
            if (!body || typeof body.pipe !== 'function') throw noWheel();
            return body;
          },
          announcedSize(request),
        );
        return { detail: 'Uploaded.' };
      },
    );
  });
}
