import { and, desc, eq, sql } from 'drizzle-orm';
import type { Backend } from '../../compute/backend.js';
import { imageOfLocation, isContainerLocation } from '../../compute/container-builder.js';
import type { Db } from '../../db/client.js';
import { softwareAliases, softwareBuilds, softwareSpecs } from '../../db/schema/index.js';
import { fieldError } from '../../http/errors.js';

/**
 * What clusters need of software environments: which build a new cluster runs (`env_id` or
 * `env_name` of the create call), whether it is ready, and the interpreter to start Dask with.
 */

/** Backends whose container images this server checks with its podman (none without it). */
const CHECKED_HERE = new Set(['in_process', 'vm_aws', 'vm_gcp']);

/**
 * The architectures a cluster's environment is built for: each of its machines' where the
 * backend's builds are per architecture (vm_aws: compiled packages are), else one build for all.
 */
const buildArchitectures = (backend: Pick<Backend, 'builder'>, architectures: readonly string[]) =>
  backend.builder?.perArchitecture ? [...new Set(architectures.filter((a) => a !== ''))] : [null];

/** A spec's latest build (of that architecture; null: of any). */
export async function latestBuildOf(tx: Db, specId: number, architecture: string | null) {
  const [build] = await tx
    .select()
    .from(softwareBuilds)
    .where(
      and(
        eq(softwareBuilds.specId, specId),
        architecture === null ? undefined : eq(softwareBuilds.architecture, architecture),
      ),
    )
    .orderBy(desc(softwareBuilds.id))
    .limit(1);
  return build;
}

/**
 * The build a cluster of this alias runs: the latest build of its latest spec (of each of the
 * cluster's architectures where builds are per architecture, the first one's answered). One that
 * is archived is restored from its lockfile first, and an architecture with no build yet gets
 * one (a new build, queued): answers whether one was queued.
 */
export async function buildForCluster(
  tx: Db,
  workspaceId: number,
  backend: Pick<Backend, 'type' | 'builder' | 'capabilities'>,
  key: { id?: number | null | undefined; name?: string | null | undefined },
  architectures: readonly string[] = [],
): Promise<{ buildId: number; queued: boolean; container: ContainerBuilt | null } | null> {
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
  const [spec] = await tx
    .select()
    .from(softwareSpecs)
    .where(eq(softwareSpecs.aliasId, alias.id))
    .orderBy(desc(softwareSpecs.id))
    .limit(1);
  const noBuild = () => fieldError(field, `Software environment ${alias.name} has no build yet.`);
  if (!spec) throw noBuild();
  // Not accepted and then run on the host's Python: a backend that cannot run images says so.
  if (spec.containerUri && !backend.capabilities.builds.includes('container'))
    throw fieldError(
      field,
      `Software environment ${alias.name} is the container image ${spec.containerUri}, and clusters on backend ${backend.type} cannot run container images` +
        (CHECKED_HERE.has(backend.type)
          ? ' (containers are off on this server: CUMULUS_PODMAN=off).'
          : ' yet.'),
    );
  let first: number | null = null;
  let queued = false;
  let container: ContainerBuilt | null = null;
  // A container environment is one build: the image its lockfile names the architecture of.
  const builds = spec.containerUri ? [null] : buildArchitectures(backend, architectures);
  for (const architecture of builds) {
    const build = await latestBuildOf(tx, spec.id, architecture);
    if (!build && architecture === null) throw noBuild();
    let id = build?.id;
    // Built for another backend (the workspace ran its clusters elsewhere then: a directory here
    // is no archive a host unpacks): built again for this one, resolved afresh.
    const elsewhere = !!build && build.backendType !== backend.type;
    if (!build || build.archivedAt || elsewhere) {
      const [made] = await tx
        .insert(softwareBuilds)
        .values({
          specId: spec.id,
          workspaceId,
          backendType: backend.type,
          architecture: architecture ?? build?.architecture ?? spec.architecture,
          // An archived build is restored exactly; another architecture or backend resolves the spec afresh.
          fromLockfile: elsewhere ? null : (build?.lockfile ?? null),
        })
        .returning({ id: softwareBuilds.id });
      id = made!.id;
      queued = true;
    }
    first ??= id!;
    if (spec.containerUri && build?.state === 'built' && backend.builder?.perArchitecture)
      refuseOtherArchitectures(field, alias.name, spec.containerUri, build.lockfile, architectures);
    if (spec.containerUri && container === null)
      container = {
        image: spec.containerUri,
        distributed:
          (build?.state === 'built' &&
            build.lockedPackages?.find((p) => p.name === 'distributed')?.version) ||
          null,
      };
  }
  return first === null ? null : { buildId: first, queued, container };
}

/**
 * Refuses a cluster whose machines (`architectures`, of its instance types) are of another
 * architecture than the image its container environment's build checked (its lockfile's header:
 * `# cumulus lockfile: container IMAGE (ID), Python 3.11.2 x86_64`), naming both: where builds are
 * per architecture (vm_aws), the image is checked once, on the server, for its architecture.
 */
function refuseOtherArchitectures(
  field: string,
  alias: string,
  image: string,
  lockfile: string | null,
  architectures: readonly string[],
) {
  const built = /^# cumulus lockfile: container .*, Python \S+ (\S+)$/m.exec(lockfile ?? '')?.[1];
  const other = architectures.find((a) => a !== '' && a !== built);
  if (built && other)
    throw fieldError(
      field,
      `Software environment ${alias} is the container image ${image}, built for ${built}, but this cluster's instance types are ${other}: choose instance types of ${built}, or an environment of an image for ${other}.`,
    );
}

/** A container environment's image and the `distributed` its build found in it (null: not built yet). */
export interface ContainerBuilt {
  image: string;
  distributed: string | null;
}

/** A version's major.minor (`2022.12.1` → `2022.12`), as package sync matches numpy and Python. */
const majorMinor = (version: string) => version.split('.').slice(0, 2).join('.');

/**
 * Refuses a cluster whose client's `distributed` (the create call's `local_versions`) another
 * major.minor than its container image's: Dask's client and scheduler of different releases fail
 * in confusing ways (messages they do not both know). Package sync installs the client's own
 * version; an image is as it was built, so the mismatch is named here instead.
 */
export function assertClientDaskMatches(
  field: string,
  container: ContainerBuilt,
  localVersions: Record<string, unknown> | null | undefined,
): void {
  const client = localVersions?.distributed;
  if (typeof client !== 'string' || !client || !container.distributed) return;
  if (majorMinor(client) === majorMinor(container.distributed)) return;
  throw fieldError(
    field,
    `Your distributed is ${client}, but the image ${container.image} has distributed ${container.distributed}: ` +
      `the client and the cluster need the same Dask release (${majorMinor(container.distributed)}.*). ` +
      `Use an image with distributed ${majorMinor(client)}.*, or a client with distributed ${majorMinor(container.distributed)}.*.`,
  );
}

/**
 * The build of `architecture` a cluster whose environment is `buildId` runs there: that build
 * itself, or where builds are per architecture and it is of another, the same spec's build of
 * that architecture (a built one first, else the latest). Null: that architecture has none.
 */
export async function buildOfArchitecture(
  db: Db,
  backend: Pick<Backend, 'builder'>,
  buildId: number,
  architecture: string | null,
): Promise<number | null> {
  if (!backend.builder?.perArchitecture || !architecture) return buildId;
  const [own] = await db
    .select({
      specId: softwareBuilds.specId,
      architecture: softwareBuilds.architecture,
      image: softwareSpecs.containerUri,
    })
    .from(softwareBuilds)
    .innerJoin(softwareSpecs, eq(softwareSpecs.id, softwareBuilds.specId))
    .where(eq(softwareBuilds.id, buildId));
  // A container environment is one build for every architecture (checked at create).
  if (!own || own.image || own.architecture === architecture) return buildId;
  const [sibling] = await db
    .select({ id: softwareBuilds.id })
    .from(softwareBuilds)
    .where(and(eq(softwareBuilds.specId, own.specId), eq(softwareBuilds.architecture, architecture)))
    .orderBy(
      desc(sql`${softwareBuilds.state} = 'built' and ${softwareBuilds.archivedAt} is null`),
      desc(softwareBuilds.id),
    )
    .limit(1);
  return sibling?.id ?? null;
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

/**
 * Whether a cluster's environment is ready on each of its machines' architectures (where builds
 * are per architecture): the first failure, else the first still building, else ready.
 */
export async function clusterEnvironmentReadiness(
  db: Db,
  backend: Pick<Backend, 'builder'>,
  buildId: number,
  architectures: readonly string[],
): Promise<Readiness> {
  const answers: Readiness[] = [];
  for (const architecture of buildArchitectures(backend, architectures)) {
    const id = await buildOfArchitecture(db, backend, buildId, architecture);
    answers.push(
      id === null
        ? {
            ready: false,
            failed: true,
            reason: `Software environment ${(await aliasNameOf(db, buildId)) ?? buildId} has no ${architecture} build: create the cluster again to build one.`,
          }
        : await environmentReadiness(db, id),
    );
  }
  return (
    answers.find((a) => !a.ready && a.failed) ??
    answers.find((a) => !a.ready) ??
    answers[0] ??
    (await environmentReadiness(db, buildId))
  );
}

/** The interpreter the cluster's Dask runs with; null: the backend's own (or the one it unpacks). */
export async function pythonFor(db: Db, backend: Backend, buildId: number | null): Promise<string | null> {
  if (buildId === null || !backend.builder || backend.builder.unpackedAtBoot) return null;
  const readiness = await environmentReadiness(db, buildId);
  return readiness.ready && readiness.location ? backend.builder.pythonOf(readiness.location) : null;
}

/**
 * The archive a cluster's instances unpack at boot, where its backend's environments are archives
 * (vm_aws): its file here and its content hash (the lockfile's SHA-256), which names the unpacked
 * copy on the machine. Null: none (no environment, or the backend points `python` into one).
 */
export async function environmentArchiveFor(
  db: Db,
  backend: Backend,
  clusterBuildId: number | null,
  /** The machine's (x86_64, aarch64): where builds are per architecture, the archive of its build. */
  architecture: string | null = null,
): Promise<{ path: string; key: string } | null> {
  if (clusterBuildId === null || !backend.builder?.unpackedAtBoot) return null;
  const buildId = await buildOfArchitecture(db, backend, clusterBuildId, architecture);
  if (buildId === null) return null;
  const [build] = await db
    .select({ location: softwareBuilds.location, hash: softwareBuilds.lockfileHash })
    .from(softwareBuilds)
    .where(and(eq(softwareBuilds.id, buildId), eq(softwareBuilds.state, 'built')));
  // A container environment is its image, pulled where it runs: no archive.
  return build?.location && build.hash && !isContainerLocation(build.location)
    ? { path: build.location, key: build.hash }
    : null;
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

/**
 * The image a cluster's instances run in, where its environment is a container one (built: the
 * image pulled and checked), and whether through the image's entrypoint; null otherwise.
 */
export async function containerFor(
  db: Db,
  buildId: number | null,
): Promise<{ image: string; reference: string; useEntrypoint: boolean } | null> {
  if (buildId === null) return null;
  const [row] = await db
    .select({
      location: softwareBuilds.location,
      reference: softwareSpecs.containerUri,
      useEntrypoint: softwareSpecs.useEntrypoint,
    })
    .from(softwareBuilds)
    .innerJoin(softwareSpecs, eq(softwareSpecs.id, softwareBuilds.specId))
    .where(and(eq(softwareBuilds.id, buildId), eq(softwareBuilds.state, 'built')));
  if (!row?.location || !row.reference || !isContainerLocation(row.location)) return null;
  return { image: imageOfLocation(row.location), reference: row.reference, useEntrypoint: row.useEntrypoint };
}
