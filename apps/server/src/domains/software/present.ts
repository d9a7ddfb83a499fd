import { and, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  packageFiles,
  type SoftwareAlias,
  type SoftwareBuild,
  type SoftwareSpec,
  softwareBuilds,
  softwareSpecs,
} from '../../db/schema/index.js';
import type { z } from '../../http/zod.js';
import { withoutCredentials } from '../../lib/redact.js';
import { isoTime, isoTimeOrNull } from '../../lib/time.js';
import { organizationView, usernamesOf, workspaceView } from '../identity/index.js';
import type { aliasSchema, buildSchema, specSchema } from './schemas.js';

type Alias = z.infer<typeof aliasSchema>;
type Spec = z.infer<typeof specSchema>;
type Build = z.infer<typeof buildSchema>;

export function presentBuild(build: SoftwareBuild, alias: Pick<SoftwareAlias, 'id' | 'name'>): Build {
  return {
    id: build.id,
    spec_id: build.specId,
    alias_id: alias.id,
    alias_name: alias.name,
    state: build.state,
    reason:
      build.archivedAt && build.state === 'built'
        ? 'Archived: a rebuild restores it from its lockfile'
        : build.reason,
    created: isoTime(build.created),
    started: isoTimeOrNull(build.started),
    ended: isoTimeOrNull(build.ended),
    backend_type: build.backendType,
    region_name: build.regionName,
    size_bytes: build.archivedAt ? 0 : build.sizeBytes,
    archived: build.archivedAt !== null,
    lockfile_hash: build.lockfileHash,
    packages: build.lockedPackages ?? [],
  };
}

/** Specs with their latest builds and the wheels they name, in three queries whatever their number. */
export async function presentSpecs(
  db: Db,
  specs: SoftwareSpec[],
  aliases: ReadonlyMap<number, Pick<SoftwareAlias, 'id' | 'name'>>,
) {
  if (specs.length === 0) return [];
  const ids = specs.map((s) => s.id);
  const fileIds = [...new Set(specs.flatMap((s) => s.packages.flatMap((p) => (p.file ? [p.file] : []))))];
  const [builds, files] = await Promise.all([
    db
      .selectDistinctOn([softwareBuilds.specId])
      .from(softwareBuilds)
      .where(inArray(softwareBuilds.specId, ids))
      .orderBy(softwareBuilds.specId, desc(softwareBuilds.id)),
    fileIds.length === 0
      ? []
      : db
          .select({ id: packageFiles.id, fileName: packageFiles.fileName })
          .from(packageFiles)
          .where(inArray(packageFiles.id, fileIds)),
  ]);
  const buildBy = new Map(builds.map((b) => [b.specId, b]));
  const fileBy = new Map(files.map((f) => [f.id, { id: f.id, file_name: f.fileName }]));
  return specs.map((spec): Spec => {
    const build = buildBy.get(spec.id);
    return {
      id: spec.id,
      md5: spec.md5,
      alias_id: spec.aliasId,
      created: isoTime(spec.created),
      creator_id: spec.creatorId,
      gpu_enabled: spec.gpuEnabled,
      architecture: spec.architecture,
      packages: spec.packages.map((p) => ({
        name: p.name,
        specifier: p.specifier,
        source: p.source,
        conda_name: p.conda_name,
        client_version: p.client_version,
        include: p.include,
        channel: p.channel,
        file: p.file ? (fileBy.get(p.file) ?? null) : null,
        requested: p.requested ?? true,
        error: p.error ?? null,
      })),
      raw_pip: spec.rawPip,
      raw_conda: spec.rawConda,
      has_raw_pip: (spec.rawPip?.length ?? 0) > 0,
      has_raw_conda: spec.rawConda !== null,
      container_uri: spec.containerUri,
      use_entrypoint: spec.useEntrypoint,
      python_specifier: spec.pythonSpecifier,
      lockfile_name: spec.lockfileName,
      scan_result: spec.scan
        ? {
            id: spec.id,
            platform: spec.scan.platform,
            base_prefix: spec.scan.base_prefix,
            prefix: spec.scan.prefix,
            index_urls: spec.scan.index_urls.map(withoutCredentials),
            find_links: (spec.scan.find_links ?? []).map(withoutCredentials),
            packages: spec.scan.packages,
            errored_packages: spec.scan.errored_packages,
          }
        : null,
      latest_build_id: build?.id ?? null,
      latest_build: build ? presentBuild(build, aliases.get(spec.aliasId)!) : null,
    };
  });
}

/** Aliases with their workspace, creator, spec count, latest spec and disk use, in a few queries. */
export async function presentAliases(db: Db, aliases: SoftwareAlias[]): Promise<Alias[]> {
  if (aliases.length === 0) return [];
  const ids = aliases.map((a) => a.id);
  const workspaceIds = [...new Set(aliases.map((a) => a.workspaceId))];
  const creatorIds = [...new Set(aliases.flatMap((a) => (a.creatorId ? [a.creatorId] : [])))];
  const [latestSpecs, counts, places, creators, disk] = await Promise.all([
    db
      .selectDistinctOn([softwareSpecs.aliasId])
      .from(softwareSpecs)
      .where(inArray(softwareSpecs.aliasId, ids))
      .orderBy(softwareSpecs.aliasId, desc(softwareSpecs.id)),
    db
      .select({ aliasId: softwareSpecs.aliasId, n: count() })
      .from(softwareSpecs)
      .where(inArray(softwareSpecs.aliasId, ids))
      .groupBy(softwareSpecs.aliasId),
    db
      .select({
        workspace: { id: workspaceView.id, slug: workspaceView.slug, name: workspaceView.name },
        organization: { id: organizationView.id, name: organizationView.name },
      })
      .from(workspaceView)
      .innerJoin(organizationView, eq(organizationView.id, workspaceView.organizationId))
      .where(inArray(workspaceView.id, workspaceIds)),
    usernamesOf(db, creatorIds),
    diskByAlias(db, ids),
  ]);
  const countBy = new Map(counts.map((c) => [c.aliasId, c.n]));
  const placeBy = new Map(places.map((p) => [p.workspace.id, p]));
  const creatorBy = new Map([...creators].map(([id, username]) => [id, { id, username }]));
  const presented = await presentSpecs(db, latestSpecs, new Map(aliases.map((a) => [a.id, a])));
  const specsByAlias = new Map(presented.map((s) => [s.alias_id, s]));
  return aliases.map((alias) => {
    const place = placeBy.get(alias.workspaceId)!;
    const spec = specsByAlias.get(alias.id) ?? null;
    return {
      id: alias.id,
      name: alias.name,
      account_slug: place.workspace.slug,
      account: { id: place.workspace.id, slug: place.workspace.slug, name: place.workspace.name },
      organization: { id: place.organization.id, name: place.organization.name },
      creator: (alias.creatorId && creatorBy.get(alias.creatorId)) || null,
      package_sync: alias.packageSync,
      spec_count: countBy.get(alias.id) ?? 0,
      status: spec?.latest_build?.state ?? null,
      disk_bytes: disk.get(alias.id) ?? 0,
      created: isoTime(alias.created),
      updated: isoTime(alias.updated),
      latest_spec: spec,
    };
  });
}

/** Bytes of the distinct environments an alias's builds have on disk. */
async function diskByAlias(db: Db, aliasIds: number[]): Promise<Map<number, number>> {
  const environments = db
    .selectDistinctOn([softwareSpecs.aliasId, softwareBuilds.location], {
      aliasId: softwareSpecs.aliasId,
      size: softwareBuilds.sizeBytes,
    })
    .from(softwareBuilds)
    .innerJoin(softwareSpecs, eq(softwareSpecs.id, softwareBuilds.specId))
    .where(
      and(
        inArray(softwareSpecs.aliasId, aliasIds),
        eq(softwareBuilds.state, 'built'),
        isNull(softwareBuilds.archivedAt),
      ),
    )
    .as('environments');
  const rows = await db
    .select({ aliasId: environments.aliasId, bytes: sql<string>`coalesce(sum(${environments.size}), 0)` })
    .from(environments)
    .groupBy(environments.aliasId);
  return new Map(rows.map((r) => [r.aliasId, Number(r.bytes)]));
}
