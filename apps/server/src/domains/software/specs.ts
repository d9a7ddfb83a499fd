import { createHash } from 'node:crypto';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  packageFiles,
  type SoftwareAlias,
  type SpecPackage,
  softwareAliases,
  softwareBuilds,
  softwareSpecs,
} from '../../db/schema/index.js';
import type { Deps } from '../../deps.js';
import { fieldError, permissionDenied } from '../../http/errors.js';
import { assertMayRunThere, type WorkspaceAccess } from '../identity/index.js';
import { latestBuildOf } from './for-clusters.js';
import type { CreateSpecBody } from './schemas.js';

/** Package-synced environments are named after their content (the console shows them as synced). */
export const PACKAGE_SYNC_PREFIX = 'package-sync-';

export function assertMayCreate(access: WorkspaceAccess): void {
  if (!access.membership && !access.isOrganizationAdmin)
    throw permissionDenied(
      `You are not a member of ${access.workspace.name}, so you cannot create software environments in it.`,
    );
}

/**
 * `POST software-environment/account/{ws}`: the spec of an alias (created if new). The same
 * content (md5) as the alias's latest spec is that spec; it is built once — again only with
 * `force_rebuild`, after an error, or (exactly, from its lockfile) when its build was archived.
 * Answers the alias and whether a build was queued.
 */
export async function createSpec(
  deps: Pick<Deps, 'db' | 'loops' | 'backends'>,
  access: WorkspaceAccess,
  body: CreateSpecBody,
): Promise<{ alias: SoftwareAlias; queued: boolean }> {
  const { db } = deps;
  const { user } = access;
  assertMayCreate(access);
  const md5 = (body.md5 ?? specMd5(body)).toLowerCase();
  const packageSync = !body.name;
  const name = body.name ?? `${PACKAGE_SYNC_PREFIX}${md5.slice(0, 16)}`;
  const packages = await checkFiles(db, access.workspace.id, body.packages ?? []);
  const backend = await deps.backends.forWorkspace(access.workspace.id);
  await assertMayRunThere(db, backend, user, 'software environments', access.workspace.id);

  const result = await db.transaction(async (tx) => {
    const [alias] = await tx
      .insert(softwareAliases)
      .values({ workspaceId: access.workspace.id, name, creatorId: user.id, packageSync })
      .onConflictDoUpdate({
        target: [softwareAliases.workspaceId, softwareAliases.name],
        set: { updated: sql`now()` },
      })
      .returning();
    const [latest] = await tx
      .select()
      .from(softwareSpecs)
      .where(eq(softwareSpecs.aliasId, alias!.id))
      .orderBy(desc(softwareSpecs.id))
      .limit(1);
    // The md5 of a container-only spec is the md5 of `null` (client-contract section 4.2): the image
    // (and whether its entrypoint runs) tells one from another, so a new image is a new spec.
    const same =
      latest?.md5 === md5 &&
      latest.containerUri === (body.container ?? null) &&
      (!latest.containerUri || latest.useEntrypoint === (body.use_entrypoint ?? true));
    const spec = same
      ? latest
      : (
          await tx
            .insert(softwareSpecs)
            .values(specRow(alias!.id, access.workspace.id, user.id, md5, packages, body))
            .returning()
        )[0]!;
    // Where builds are per architecture (vm_aws), the spec's build for the architecture asked.
    const build = await latestBuildOf(
      tx,
      spec.id,
      backend.builder?.perArchitecture ? body.architecture : null,
    );
    // A build for another backend (before the workspace's clusters moved) is not this one's.
    const keep =
      build && build.state !== 'error' && build.backendType === backend.type && !body.force_rebuild;
    if (keep && !build.archivedAt) return { alias: alias!, queued: false };
    await tx.insert(softwareBuilds).values({
      specId: spec.id,
      workspaceId: access.workspace.id,
      backendType: backend.type,
      regionName: body.region_name ?? null,
      architecture: body.architecture,
      // An archived build is restored exactly, from its lockfile.
      fromLockfile: keep ? build.lockfile : null,
    });
    return { alias: alias!, queued: true };
  });
  if (result.queued) deps.loops.wake('software-builds');
  return result;
}

function specRow(
  aliasId: number,
  workspaceId: number,
  creatorId: number,
  md5: string,
  packages: SpecPackage[],
  body: CreateSpecBody,
): typeof softwareSpecs.$inferInsert {
  return {
    aliasId,
    workspaceId,
    creatorId,
    md5,
    packages,
    rawPip: body.raw_pip ?? null,
    rawConda: body.raw_conda ?? null,
    containerUri: body.container ?? null,
    useEntrypoint: body.use_entrypoint ?? true,
    gpuEnabled: body.gpu_enabled,
    architecture: body.architecture,
    pythonSpecifier: packages.find((p) => p.name === 'python')?.specifier || null,
    lockfileName: body.lockfile_name ?? null,
    lockfileContent: body.lockfile_content ?? null,
    scan: body.scan
      ? {
          platform: body.scan.platform ?? null,
          base_prefix: body.scan.base_prefix ?? null,
          prefix: body.scan.prefix ?? null,
          index_urls: body.scan.index_urls,
          find_links: body.scan.find_links,
          packages: body.scan.packages,
          errored_packages: body.scan.errored_packages,
        }
      : null,
  };
}

/** Every wheel a spec names must be the workspace's and uploaded. */
async function checkFiles(
  db: Db,
  workspaceId: number,
  packages: NonNullable<CreateSpecBody['packages']>,
): Promise<SpecPackage[]> {
  const ids = [...new Set(packages.flatMap((p) => (p.file ? [p.file] : [])))];
  if (ids.length > 0) {
    const found = await db
      .select({ id: packageFiles.id })
      .from(packageFiles)
      .where(
        and(
          inArray(packageFiles.id, ids),
          eq(packageFiles.workspaceId, workspaceId),
          eq(packageFiles.uploaded, true),
        ),
      );
    const known = new Set(found.map((f) => f.id));
    const missing = ids.filter((id) => !known.has(id));
    if (missing.length > 0)
      throw fieldError('packages', `No uploaded package file ${missing.join(', ')} in this workspace.`);
  }
  return packages.map((p) => ({
    name: p.name,
    specifier: p.specifier,
    source: p.source,
    conda_name: p.conda_name ?? null,
    client_version: p.client_version ?? null,
    include: p.include,
    channel: p.channel ?? null,
    file: p.file ?? null,
  }));
}

/**
 * The md5 clients compute: MD5 of Python's
 * `json.dumps(spec, sort_keys=True)` of `{packages, raw_pip, raw_conda, lockfile_name,
 * lockfile_content}`, or of `null` for a container alone. For callers that send none.
 */
export function specMd5(body: CreateSpecBody): string {
  const spec =
    body.container && !body.packages?.length && !body.raw_pip?.length && !body.raw_conda
      ? null
      : {
          packages: body.packages ?? null,
          raw_pip: body.raw_pip ?? null,
          raw_conda: body.raw_conda ?? null,
          lockfile_name: body.lockfile_name ?? null,
          lockfile_content: body.lockfile_content ?? null,
        };
  return createHash('md5').update(pythonJson(spec)).digest('hex');
}

/** `json.dumps(value, sort_keys=True)` as Python writes it (", " and ": ", ASCII escapes). */
export function pythonJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : String(value);
  if (typeof value === 'string')
    return JSON.stringify(value).replace(
      /[\u007f-\uffff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(', ')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${pythonJson(k)}: ${pythonJson(v)}`).join(', ')}}`;
}
