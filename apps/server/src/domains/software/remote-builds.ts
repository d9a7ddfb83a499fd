import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { type BuildReport, softwareBuildLogs, softwareBuilds } from '../../db/schema/index.js';
import type { Deps } from '../../deps.js';
import { ApiError, conflict, notFound } from '../../http/errors.js';
import { withoutCredentials } from '../../lib/redact.js';
import type { PhoneHome } from './facing-schemas.js';
import { isOutside } from './outside-archives.js';
import { buildRequest, buildWithSpec } from './reconcile.js';

/** Where a build's uploaded environment archive is kept. */
export const archivePath = (dataDir: string, buildId: number) =>
  path.join(dataDir, 'environments', 'archives', `build-${buildId}.tar.gz`);

async function foundBuild(db: Db, buildId: number) {
  const row = await buildWithSpec(db, buildId);
  if (!row) throw notFound('Build not found.');
  return row;
}

export async function assertBuilding(db: Db, buildId: number): Promise<void> {
  const { build } = await foundBuild(db, buildId);
  if (build.state !== 'building')
    throw conflict(
      `This build is ${build.state}, not building: nothing more can be reported for it.`,
      'BUILD_NOT_RUNNING',
    );
}

/** What the machine builds: the same request the local builder gets, wheels as download links. */
export async function specFor(
  deps: Pick<Deps, 'db' | 'config'>,
  buildId: number,
  wheelUrl: (buildId: number, fileId: number) => string,
) {
  const { build, spec } = await foundBuild(deps.db, buildId);
  const request = await buildRequest(
    { db: deps.db, dataDir: deps.config.dataDir },
    buildId,
    spec,
    build.fromLockfile,
  );
  return {
    build_id: buildId,
    kind: request.kind,
    requirements: request.requirements,
    wheels: request.wheels.map((w) => ({
      id: w.id,
      file_name: w.fileName,
      sha256: w.sha256,
      url: wheelUrl(buildId, w.id),
    })),
    lockfile: request.lockfile ?? null,
    container_uri: spec.containerUri,
    raw_conda: spec.rawConda,
  };
}

/**
 * A phone-home: its log lines are appended to the build's log (never rewritten) and what it says
 * of its state and result is kept as the build's report, which the build loop acts on. Once a
 * machine has said `built` or `error` its state stays.
 */
export async function phoneHome(db: Db, buildId: number, body: PhoneHome): Promise<void> {
  await assertBuilding(db, buildId);
  const now = Date.now();
  await db.transaction(async (tx) => {
    const lines = body.logs ?? [];
    if (lines.length > 0)
      await tx.insert(softwareBuildLogs).values(
        lines.map((message) => ({
          buildId,
          timestampMs: now,
          message: withoutCredentials(message.replaceAll('\0', '')),
        })),
      );
    if (body.state === undefined) return;
    const [row] = await tx
      .select({ report: softwareBuilds.report })
      .from(softwareBuilds)
      .where(eq(softwareBuilds.id, buildId))
      .for('update');
    const before = row?.report ?? null;
    if (before && before.state !== 'building') return;
    const report: BuildReport = {
      ...before,
      state: body.state,
      ...(body.reason !== undefined && { reason: withoutCredentials(body.reason) }),
      ...(body.lockfile !== undefined && { lockfile: body.lockfile }),
      ...(body.packages !== undefined && { packages: body.packages }),
      ...(body.size_bytes !== undefined && { sizeBytes: body.size_bytes }),
      ...(body.location !== undefined && { location: body.location }),
    };
    await tx.update(softwareBuilds).set({ report }).where(eq(softwareBuilds.id, buildId));
  });
}

/**
 * Where a build machine uploads when its workspace keeps archives outside this server (vm_gcp's
 * bucket): a signed link into the store, the upload's location recorded as the build's archive;
 * null where this server keeps it (the control plane's own link then).
 */
export async function storeUpload(
  deps: Pick<Deps, 'db' | 'backends'>,
  buildId: number,
): Promise<{ url: string; expiresAt: Date } | null> {
  const { build } = await foundBuild(deps.db, buildId);
  const store = (await deps.backends.forWorkspace(build.workspaceId)).builder?.archives;
  const target = await store?.uploadTarget(build.workspaceId, buildId).catch((err: unknown) => {
    throw new ApiError(502, {
      detail: `The workspace's archive bucket could not be reached: ${(err as Error).message}`,
      code: 'ARCHIVE_STORE_UNAVAILABLE',
    });
  });
  if (!target) return null;
  await deps.db
    .update(softwareBuilds)
    .set({
      report: sql`coalesce(${softwareBuilds.report}, '{"state":"building"}'::jsonb) || ${JSON.stringify({ archive: target.location })}::jsonb`,
    })
    .where(eq(softwareBuilds.id, buildId));
  return { url: target.url, expiresAt: target.expiresAt };
}

export async function archiveReceived(db: Db, buildId: number, archive: string, size: number): Promise<void> {
  await db
    .update(softwareBuilds)
    .set({
      report: sql`coalesce(${softwareBuilds.report}, '{"state":"building"}'::jsonb) || ${JSON.stringify({ archive, sizeBytes: size })}::jsonb`,
    })
    .where(eq(softwareBuilds.id, buildId));
}

/** A wheel of the build's spec, or the environment archive the build uploaded. */
export async function downloadable(
  deps: Pick<Deps, 'db' | 'config'>,
  buildId: number,
  fileId: number | undefined,
) {
  const { build, spec } = await foundBuild(deps.db, buildId);
  if (fileId !== undefined) {
    const request = await buildRequest({ db: deps.db, dataDir: deps.config.dataDir }, buildId, spec, null);
    const wheel = request.wheels.find((w) => w.id === fileId);
    if (!wheel) throw notFound('This build installs no such file.');
    return { path: wheel.path, name: wheel.fileName, type: 'application/octet-stream' };
  }
  // A cloud builder keeps a built archive under its content hash (remote-builder.ts).
  const archive =
    build.state === 'built' && build.location?.endsWith('.tar.gz') ? build.location : build.report?.archive;
  if (!archive) throw notFound('This build has uploaded no environment archive.');
  // In the workspace's bucket (vm_gcp): not on this server.
  if (isOutside(archive)) throw notFound("This build keeps its archive in the workspace's bucket.");
  return { path: archive, name: `build-${buildId}.tar.gz`, type: 'application/gzip' };
}
