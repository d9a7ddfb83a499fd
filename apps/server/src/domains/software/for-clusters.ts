import { and, desc, eq } from 'drizzle-orm';
import type { Backend } from '../../compute/backend.js';
import type { Db } from '../../db/client.js';
import { softwareAliases, softwareBuilds, softwareSpecs } from '../../db/schema/index.js';
import { fieldError } from '../../http/errors.js';

/**
 * What clusters need of software environments: which build a new cluster runs (`env_id` or
 * `env_name` of the create call), whether it is ready, and the interpreter to start Dask with.
 */

/**
 * The build a cluster of this alias runs: the latest build of its latest spec. An archived one is
 * restored from its lockfile first (a new build, queued): answers whether one was queued.
 */
export async function buildForCluster(
  tx: Db,
  workspaceId: number,
  backendType: string,
  key: { id?: number | null | undefined; name?: string | null | undefined },
): Promise<{ buildId: number; queued: boolean } | null> {
  if (key.id == null && !key.name) return null;
  const field = key.id != null ? 'env_id' : 'env_name';
  const [alias] = await tx
    .select()
    .from(softwareAliases)
    .where(
      and(
        eq(softwareAliases.workspaceId, workspaceId),
        key.id != null ? eq(softwareAliases.id, key.id) : eq(softwareAliases.name, key.name!),
      ),
    );
  if (!alias) throw fieldError(field, `No software environment ${key.id ?? key.name} in this workspace.`);
  const [latest] = await tx
    .select({ spec: softwareSpecs, build: softwareBuilds })
    .from(softwareSpecs)
    .leftJoin(softwareBuilds, eq(softwareBuilds.specId, softwareSpecs.id))
    .where(eq(softwareSpecs.aliasId, alias.id))
    .orderBy(desc(softwareSpecs.id), desc(softwareBuilds.id))
    .limit(1);
  if (!latest?.build) throw fieldError(field, `Software environment ${alias.name} has no build yet.`);
  const build = latest.build;
  if (!build.archivedAt) return { buildId: build.id, queued: false };
  const [restored] = await tx
    .insert(softwareBuilds)
    .values({ specId: latest.spec.id, workspaceId, backendType, fromLockfile: build.lockfile })
    .returning({ id: softwareBuilds.id });
  return { buildId: restored!.id, queued: true };
}

export type Readiness =
  | { ready: true; location: string | null }
  | { ready: false; failed: boolean; reason: string };

/** Whether a cluster's environment is built, still building, or failed (with the reason users read). */
export async function environmentReadiness(db: Db, buildId: number): Promise<Readiness> {
  const [row] = await db
    .select({ build: softwareBuilds, alias: softwareAliases })
    .from(softwareBuilds)
    .innerJoin(softwareSpecs, eq(softwareSpecs.id, softwareBuilds.specId))
    .innerJoin(softwareAliases, eq(softwareAliases.id, softwareSpecs.aliasId))
    .where(eq(softwareBuilds.id, buildId));
  if (!row) return { ready: false, failed: true, reason: 'Its software environment was deleted.' };
  const { build, alias } = row;
  switch (build.state) {
    case 'built':
      if (build.archivedAt)
        return {
          ready: false,
          failed: true,
          reason: `Software environment ${alias.name} was archived: create the cluster again to restore it.`,
        };
      return { ready: true, location: build.location };
    case 'error':
      return {
        ready: false,
        failed: true,
        reason: `Software environment ${alias.name} failed to build: ${build.reason}`,
      };
    default:
      return {
        ready: false,
        failed: false,
        reason: `Waiting for software environment ${alias.name} to build (build ${build.id} is ${build.state})`,
      };
  }
}

/** The interpreter the cluster's Dask runs with; null: the backend's own. */
export async function pythonFor(db: Db, backend: Backend, buildId: number | null): Promise<string | null> {
  if (buildId === null || !backend.builder) return null;
  const readiness = await environmentReadiness(db, buildId);
  return readiness.ready && readiness.location ? backend.builder.pythonOf(readiness.location) : null;
}

/** The alias name a cluster's build belongs to (the details' `senv_alias`). */
export async function aliasNameOf(db: Db, buildId: number | null): Promise<string | null> {
  if (buildId === null) return null;
  const [row] = await db
    .select({ name: softwareAliases.name })
    .from(softwareBuilds)
    .innerJoin(softwareSpecs, eq(softwareSpecs.id, softwareBuilds.specId))
    .innerJoin(softwareAliases, eq(softwareAliases.id, softwareSpecs.aliasId))
    .where(eq(softwareBuilds.id, buildId));
  return row?.name ?? null;
}
