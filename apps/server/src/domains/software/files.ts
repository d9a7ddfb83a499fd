import { createHash } from 'node:crypto';
import path from 'node:path';
import { and, asc, eq } from 'drizzle-orm';
import { normaliseProject } from '../../compute/builder.js';
import type { Db } from '../../db/client.js';
import { type PackageFile, packageFiles } from '../../db/schema/index.js';
import type { Deps } from '../../deps.js';
import { ApiError, badRequest, notFound } from '../../http/errors.js';
import type { z } from '../../http/zod.js';
import { Signer } from '../../lib/crypto.js';
import { type Announced, receiveFile } from '../../lib/receive-file.js';
import type { WorkspaceAccess } from '../identity/index.js';
import type { packageUploadBody } from './schemas.js';
import { assertMayCreate } from './specs.js';

/** How long an upload link works. */
const UPLOAD_LINK_SECONDS = 3600;
/** The largest wheel the index takes. */
const MAX_WHEEL_BYTES = 512 * 2 ** 20;

/** Where an uploaded wheel is kept: by workspace and content, under its own name (pip needs it). */
export const packageFilePath = (
  dataDir: string,
  file: Pick<PackageFile, 'workspaceId' | 'md5' | 'fileName'>,
) => path.join(dataDir, 'packages', String(file.workspaceId), file.md5, file.fileName);

/** A wheel's project, from its file name (`name-version-...whl`). */
const projectOf = (fileName: string) => normaliseProject(fileName.split('-')[0] ?? fileName);

const signer = (secret: string) => new Signer(secret, 'package-upload');

/**
 * `POST software-environment/account/{ws}/package-upload` (client-contract.md section 4.1, step
 * 3): a wheel already here (same name and content) is not uploaded again; otherwise the answer is
 * a link, signed and expiring, that Cumulus itself receives the file at.
 */
export async function requestUpload(
  deps: Pick<Deps, 'db' | 'config'>,
  access: WorkspaceAccess,
  body: z.infer<typeof packageUploadBody>,
) {
  const { user } = access;
  assertMayCreate(access);
  const md5 = Buffer.from(body.wheel_md5, 'base64').toString('hex');
  const [file] = await deps.db
    .insert(packageFiles)
    .values({
      workspaceId: access.workspace.id,
      fileName: body.name,
      project: projectOf(body.name),
      clientMd5: body.md5,
      md5,
      creatorId: user.id,
    })
    .onConflictDoUpdate({
      target: [packageFiles.workspaceId, packageFiles.fileName, packageFiles.md5],
      set: { clientMd5: body.md5 },
    })
    .returning();
  if (file!.uploaded) return { should_upload: false, upload_url: null, id: file!.id };
  const expires = Math.floor(Date.now() / 1000) + UPLOAD_LINK_SECONDS;
  const signature = signer(deps.config.secret).sign(`${file!.id}:${expires}`);
  const url = `${deps.config.publicUrl}/api/v2/software-environment/upload/${file!.id}?expires=${expires}&signature=${signature}`;
  return { should_upload: true, upload_url: url, id: file!.id };
}

/** `PUT software-environment/upload/{id}` with a link from requestUpload: checks and keeps the file. */
export async function receiveUpload(
  deps: Pick<Deps, 'db' | 'config'>,
  fileId: number,
  link: { expires: number; signature: string },
  contentMd5: string | undefined,
  body: () => NodeJS.ReadableStream,
  announced?: Announced,
): Promise<void> {
  if (!signer(deps.config.secret).verify(`${fileId}:${link.expires}`, link.signature))
    throw new ApiError(403, { detail: 'This upload link is not valid.', code: 'BAD_SIGNATURE' });
  if (link.expires < Date.now() / 1000)
    throw new ApiError(403, {
      detail: 'This upload link has expired: ask for a new one.',
      code: 'LINK_EXPIRED',
    });
  const [file] = await deps.db.select().from(packageFiles).where(eq(packageFiles.id, fileId));
  if (!file) throw notFound('Package file not found.');
  // Streamed to disk and hashed on the way: a wheel is never held in memory whole.
  const md5 = createHash('md5');
  const sha256 = createHash('sha256');
  const size = await receiveFile(body(), packageFilePath(deps.config.dataDir, file), {
    maxBytes: MAX_WHEEL_BYTES,
    tooLarge: () => new ApiError(413, { detail: 'The wheel is too large.', code: 'TOO_LARGE' }),
    announced,
    onChunk: (chunk) => {
      md5.update(chunk);
      sha256.update(chunk);
    },
    verify: (received) => {
      if (received === 0) throw noWheel();
      const digest = md5.digest();
      if (contentMd5 && contentMd5 !== digest.toString('base64'))
        throw badRequest('The content-md5 header does not match the file sent.', 'BAD_DIGEST');
      if (digest.toString('hex') !== file.md5)
        throw badRequest(
          `The file sent is not the one announced (its MD5 differs from ${file.md5}).`,
          'BAD_DIGEST',
        );
    },
  });
  if (file.uploaded) return;
  await deps.db
    .update(packageFiles)
    .set({ uploaded: true, sizeBytes: size, sha256: sha256.digest('hex') })
    .where(eq(packageFiles.id, fileId));
}

export const noWheel = () =>
  badRequest('Send the wheel as the body, with Content-Type: binary/octet-stream.');

/** The projects of a workspace's package index (PEP 503), with their uploaded files. */
export async function indexFiles(db: Db, workspaceId: number, project?: string) {
  return db
    .select()
    .from(packageFiles)
    .where(
      and(
        eq(packageFiles.workspaceId, workspaceId),
        eq(packageFiles.uploaded, true),
        project ? eq(packageFiles.project, normaliseProject(project)) : undefined,
      ),
    )
    .orderBy(asc(packageFiles.project), asc(packageFiles.fileName));
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** PEP 503 pages: the project list, and one project's files (with their sha256 for pip to check). */
export function indexPage(title: string, links: Array<{ href: string; text: string }>): string {
  const body = links.map((l) => `<a href="${escapeHtml(l.href)}">${escapeHtml(l.text)}</a><br/>`).join('\n');
  return `<!DOCTYPE html>\n<html><head><meta name="pypi:repository-version" content="1.0"><title>${escapeHtml(title)}</title></head><body>\n${body}\n</body></html>\n`;
}
