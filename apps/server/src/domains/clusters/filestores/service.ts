import { stat } from 'node:fs/promises';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../../db/client.js';
import { clusters, type Filestore, filestoreAttachments, filestores } from '../../../db/schema/index.js';
import type { Deps } from '../../../deps.js';
import { fieldError, notFound, permissionDenied } from '../../../http/errors.js';
import type { z } from '../../../http/zod.js';
import { isoTime } from '../../../lib/time.js';
import { type WorkspaceAccess, type WorkspaceKey, workspaceView } from '../../identity/index.js';
import { assertMayCreate, assertMayManage, type ClusterAccess } from '../access.js';
import { clearFiles, type Direction, fileOf, listFiles, signedLink } from './files.js';
import type { attachBody, attachmentSpec, listBody } from './schemas.js';

/**
 * Who calls: a cluster's instance (its bearer token) or a user (the client, before the cluster
 * starts) with what their route's needs resolved to (`workspace` or `cluster`; http/access.ts).
 */
export type Caller =
  | { kind: 'cluster'; clusterId: number }
  | { kind: 'user'; workspace?: WorkspaceAccess; cluster?: ClusterAccess };

export function callerOf(request: FastifyRequest): Caller {
  const principal = request.principal;
  if (principal?.kind === 'cluster') return { kind: 'cluster', clusterId: principal.clusterId };
  return { kind: 'user', workspace: request.access?.workspace, cluster: request.access?.cluster };
}

/** Whether a user calls (their route's needs are resolved for users only; instances are their cluster's). */
export const isUserCall = (request: FastifyRequest) => request.principal?.kind !== 'cluster';

const storeNotFound = () => notFound('Filestore not found.');

/** What a user's call resolved, for the service that needs it (a route that declares it always has it). */
function resolved<T>(found: T | undefined): T {
  if (!found) throw new Error('a filestore call used access its route does not declare');
  return found;
}

/** The workspace a user's call names (default: the user's own), for the route's `workspace` need. */
export function namedWorkspace(
  request: FastifyRequest,
  slug: string | null | undefined,
): WorkspaceKey | null {
  if (!isUserCall(request)) return null;
  if (slug) return { slug };
  const id = request.user?.defaultWorkspaceId ?? null;
  if (id === null) throw fieldError('workspace', 'Name the workspace.');
  return { id };
}

/** The workspace of the store a user's call names, for the route's `workspace` need. */
export async function storeWorkspace(
  db: Db,
  request: FastifyRequest,
  fsId: number,
): Promise<WorkspaceKey | null> {
  if (!isUserCall(request)) return null;
  const [store] = await db
    .select({ workspaceId: filestores.workspaceId })
    .from(filestores)
    .where(eq(filestores.id, fsId));
  if (!store) throw storeNotFound();
  return { id: store.workspaceId };
}

async function clusterWorkspace(db: Db, clusterId: number) {
  const [row] = await db
    .select({ id: workspaceView.id, slug: workspaceView.slug })
    .from(clusters)
    .innerJoin(workspaceView, eq(workspaceView.id, clusters.workspaceId))
    .where(eq(clusters.id, clusterId));
  return row!;
}

/** The workspace a call is about: a cluster's own, else the one the user's call named (resolved). */
async function workspaceOf(db: Db, caller: Caller, write: boolean) {
  if (caller.kind === 'cluster') return clusterWorkspace(db, caller.clusterId);
  const access = resolved(caller.workspace);
  if (write) assertMayCreate(access);
  return { id: access.workspace.id, slug: access.workspace.slug };
}

function present(store: Filestore, workspace: string) {
  return { id: store.id, name: store.name, workspace, region: store.region, created: isoTime(store.created) };
}

/** `POST filestore/list`: the stores of these names in the workspace, made when missing. */
export async function listOrCreate(db: Db, caller: Caller, body: z.infer<typeof listBody>) {
  const workspace = await workspaceOf(db, caller, true);
  await db
    .insert(filestores)
    .values(
      body.names.map((name) => ({
        workspaceId: workspace.id,
        name,
        region: body.region ?? '',
        creatorId: caller.kind === 'user' ? resolved(caller.workspace).user.id : null,
      })),
    )
    .onConflictDoNothing();
  const rows = await db
    .select()
    .from(filestores)
    .where(and(eq(filestores.workspaceId, workspace.id), inArray(filestores.name, body.names)))
    .orderBy(asc(filestores.id));
  return { filestores: rows.map((r) => present(r, workspace.slug)) };
}

/** `GET filestore/name/{name}`: the store of that name, if any, as a list. */
export async function byName(db: Db, caller: Caller, name: string) {
  const workspace = await workspaceOf(db, caller, false);
  const rows = await db
    .select()
    .from(filestores)
    .where(and(eq(filestores.workspaceId, workspace.id), eq(filestores.name, name)));
  return { filestores: rows.map((r) => present(r, workspace.slug)) };
}

/** A store the caller may read (or write): of the caller's cluster's workspace, or the one the user's call resolved. */
export async function storeAccess(db: Db, caller: Caller, fsId: number, write: boolean): Promise<Filestore> {
  const [store] = await db.select().from(filestores).where(eq(filestores.id, fsId));
  if (!store) throw storeNotFound();
  if (caller.kind === 'cluster') {
    if ((await clusterWorkspace(db, caller.clusterId)).id !== store.workspaceId) throw storeNotFound();
    return store;
  }
  const access = resolved(caller.workspace);
  if (access.workspace.id !== store.workspaceId) throw storeNotFound();
  if (write) assertMayCreate(access);
  return store;
}

async function attachmentRows(db: Db, clusterId: number) {
  const rows = await db
    .select({ attachment: filestoreAttachments, store: filestores })
    .from(filestoreAttachments)
    .innerJoin(filestores, eq(filestores.id, filestoreAttachments.filestoreId))
    .where(eq(filestoreAttachments.clusterId, clusterId))
    .orderBy(asc(filestoreAttachments.id));
  return {
    attachments: rows.map(({ attachment: a, store }) => ({
      id: a.id,
      complete: a.complete,
      input: a.input,
      output: a.output,
      primary: a.primary,
      path: a.path,
      filestore: { id: store.id, name: store.name },
    })),
  };
}

/** `GET filestore/cluster/{id}`: what is attached to a cluster (its own instances, or users who read it). */
export async function clusterAttachments(db: Db, caller: Caller, clusterId: number) {
  if (caller.kind === 'cluster') {
    if (caller.clusterId !== clusterId) throw notFound('Cluster not found.');
  } else if (resolved(caller.cluster).cluster.id !== clusterId) throw notFound('Cluster not found.');
  return attachmentRows(db, clusterId);
}

/** `GET filestore/vm/{role}`: the calling instance's cluster's attachments (every role syncs them all). */
export async function vmAttachments(db: Db, caller: Caller) {
  if (caller.kind !== 'cluster')
    throw permissionDenied("Only a cluster's instances ask for their attachments.");
  return attachmentRows(db, caller.clusterId);
}

/** Records attachments of stores of the cluster's workspace (in the cluster's create transaction, or `attach`). */
export async function attachStores(
  tx: Db,
  cluster: { id: number; workspaceId: number },
  specs: z.infer<typeof attachmentSpec>[],
): Promise<void> {
  const ids = specs.map((s) => s.id);
  const stores = await tx
    .select({ id: filestores.id })
    .from(filestores)
    .where(and(inArray(filestores.id, ids), eq(filestores.workspaceId, cluster.workspaceId)));
  for (const spec of specs)
    if (!stores.some((s) => s.id === spec.id))
      throw fieldError('attachments', `Filestore ${spec.id} is not a store of the cluster's workspace.`);
  for (const spec of specs) {
    const values = {
      input: spec.input,
      output: spec.output,
      primary: spec.primary,
      path: spec.path?.trim() || '.',
    };
    await tx
      .insert(filestoreAttachments)
      .values({ clusterId: cluster.id, filestoreId: spec.id, ...values })
      .onConflictDoUpdate({
        target: [filestoreAttachments.clusterId, filestoreAttachments.filestoreId],
        set: values,
      });
  }
}

/** `POST filestore/attach`: the cluster's creator and admins (or the cluster itself) attach stores. */
export async function attach(db: Db, caller: Caller, body: z.infer<typeof attachBody>) {
  let cluster: { id: number; workspaceId: number };
  if (caller.kind === 'cluster') {
    if (caller.clusterId !== body.cluster_id) throw notFound('Cluster not found.');
    [cluster] = (await db.select().from(clusters).where(eq(clusters.id, body.cluster_id))) as [
      typeof clusters.$inferSelect,
    ];
  } else {
    const target = resolved(caller.cluster);
    if (target.cluster.id !== body.cluster_id) throw notFound('Cluster not found.');
    assertMayManage(target.access.user, target);
    cluster = target.cluster;
  }
  await db.transaction((tx) => attachStores(tx, cluster, body.attachments));
  return attachmentRows(db, cluster.id);
}

/** `POST filestore/fs/{id}/status/{start|finish}`: an instance's sync of the store began or ended. */
export async function syncStatus(db: Db, caller: Caller, fsId: number, action: 'start' | 'finish') {
  if (caller.kind !== 'cluster') throw permissionDenied("Only a cluster's instances report their syncs.");
  await storeAccess(db, caller, fsId, false);
  const now = new Date();
  const [row] = await db
    .update(filestoreAttachments)
    .set(action === 'start' ? { complete: false, syncStarted: now } : { complete: true, syncFinished: now })
    .where(
      and(eq(filestoreAttachments.clusterId, caller.clusterId), eq(filestoreAttachments.filestoreId, fsId)),
    )
    .returning();
  if (!row) throw notFound('This filestore is not attached to the cluster.');
  return { complete: row.complete };
}

/** `POST filestore/fs/{id}/signed-urls/{direction}`: a link per path, and what the store has of them already. */
export async function signedUrls(
  deps: Pick<Deps, 'db' | 'config'>,
  caller: Caller,
  fsId: number,
  direction: Direction,
  paths: string[],
) {
  await storeAccess(deps.db, caller, fsId, direction === 'upload');
  const urls: Record<string, string> = {};
  const existing: Record<string, { size: number; modified: number }> = {};
  for (const relative of paths) {
    const file = fileOf(deps.config.dataDir, fsId, relative);
    if (!file) throw fieldError('paths', `${relative} leaves the store.`);
    urls[relative] = signedLink(deps.config, fsId, direction, relative);
    const info = await stat(file).catch(() => null);
    if (info?.isFile()) existing[relative] = { size: info.size, modified: info.mtimeMs / 1000 };
  }
  return { urls, existing };
}

/** `GET filestore/fs/{id}/download-with-urls`: every file of the store with a link to fetch it. */
export async function downloadWithUrls(deps: Pick<Deps, 'db' | 'config'>, caller: Caller, fsId: number) {
  await storeAccess(deps.db, caller, fsId, false);
  const files = await listFiles(deps.config.dataDir, fsId);
  return {
    blobs_with_urls: files.map((f) => ({
      relative_path: f.relative,
      key: `${fsId}/${f.relative}`,
      size: f.size,
      url: signedLink(deps.config, fsId, 'download', f.relative),
    })),
  };
}

/** `POST filestore/fs/{id}/clear`: the store keeps its name and loses its files. */
export async function clear(deps: Pick<Deps, 'db' | 'config'>, caller: Caller, fsId: number) {
  await storeAccess(deps.db, caller, fsId, true);
  await clearFiles(deps.config.dataDir, fsId);
  return { ok: true };
}

/** The files of a cluster's output stores, with links to fetch them (a batch job's results). */
export async function outputFiles(deps: Pick<Deps, 'db' | 'config'>, clusterId: number) {
  const rows = await deps.db
    .select({ store: filestores })
    .from(filestoreAttachments)
    .innerJoin(filestores, eq(filestores.id, filestoreAttachments.filestoreId))
    .where(and(eq(filestoreAttachments.clusterId, clusterId), eq(filestoreAttachments.output, true)));
  const files = await Promise.all(
    rows.map(async ({ store }) =>
      (await listFiles(deps.config.dataDir, store.id)).map((f) => ({
        filestore: store.name,
        relative_path: f.relative,
        size: f.size,
        url: signedLink(deps.config, store.id, 'download', f.relative),
      })),
    ),
  );
  return { files: files.flat() };
}
