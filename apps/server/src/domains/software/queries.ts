import { and, asc, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  type SoftwareAlias,
  softwareAliases,
  softwareBuildLogs,
  softwareBuilds,
  softwareSpecs,
} from '../../db/schema/index.js';
import { notFound, permissionDenied } from '../../http/errors.js';
import { countRows, type OffsetQuery, paginate } from '../../http/pagination.js';
import type { z } from '../../http/zod.js';
import { contains, startsWith } from '../../lib/sql.js';
import { type ResolvedScope, userView, type WorkspaceAccess, workspaceView } from '../identity/index.js';
import { OUTSIDE_PREFIX } from './outside-archives.js';
import { presentAliases, presentBuild, presentSpecs } from './present.js';
import type { aliasListQuery, buildLogsQuery, scopedAliasQuery, valuesQuery } from './schemas.js';

const aliasNotFound = () => notFound('Software environment not found.');
const buildNotFound = () => notFound('Build not found.');

/** The latest build's state of an alias, for filters and ordering. */
const aliasStatus = sql<string | null>`(
  select b.state from ${softwareBuilds} b join ${softwareSpecs} s on s.id = b.spec_id
  where s.alias_id = ${softwareAliases.id} order by s.id desc, b.id desc limit 1)`;

/** `GET .../account/{ws}/alias`: the workspace's environments, newest first; package-synced ones if asked. */
export async function listAliases(db: Db, access: WorkspaceAccess, query: z.infer<typeof aliasListQuery>) {
  const { workspace } = access;
  const where = and(
    eq(softwareAliases.workspaceId, workspace.id),
    query.include_package_sync ? undefined : eq(softwareAliases.packageSync, false),
  );
  const { rows, count } = await paginate(
    query,
    db
      .select()
      .from(softwareAliases)
      .where(where)
      .orderBy(desc(softwareAliases.updated), desc(softwareAliases.id)),
    db.$count(softwareAliases, where),
  );
  return { items: await presentAliases(db, rows), count };
}

/**
 * `GET software-environment/alias`: environments across what the caller may read (a workspace,
 * an organization, everything for staff), filtered and ordered as the Software list asks.
 */
export async function scopedAliases(db: Db, scope: ResolvedScope, query: z.infer<typeof scopedAliasQuery>) {
  if (scope.workspaceIds?.length === 0) return { items: [], count: 0 };
  const where = and(
    scope.workspaceIds === null ? undefined : inArray(softwareAliases.workspaceId, scope.workspaceIds),
    scope.userId === null ? undefined : eq(softwareAliases.creatorId, scope.userId),
    query.name ? contains(softwareAliases.name, query.name) : undefined,
    query.package_sync === undefined ? undefined : eq(softwareAliases.packageSync, query.package_sync),
    query.creator
      ? inArray(
          softwareAliases.creatorId,
          db.select({ id: userView.id }).from(userView).where(eq(userView.username, query.creator)),
        )
      : undefined,
    query.status ? sql`${aliasStatus} = ${query.status}` : undefined,
  );
  const direction = query.order_by_direction === 'asc' ? asc : desc;
  const order = {
    name: softwareAliases.name,
    package_sync: softwareAliases.packageSync,
    status: aliasStatus,
    updated: softwareAliases.updated,
    created: softwareAliases.created,
  }[query.order_by];
  const { rows, count } = await paginate(
    query,
    db.select().from(softwareAliases).where(where).orderBy(direction(order), direction(softwareAliases.id)),
    db.$count(softwareAliases, where),
  );
  return { items: await presentAliases(db, rows), count };
}

/** `GET software-environment/values`: what a filter key can be, for the search bar's suggestions. */
export async function filterValues(
  db: Db,
  { workspaceIds: readable }: ResolvedScope,
  query: z.infer<typeof valuesQuery>,
) {
  const scope = readable === null ? undefined : inArray(softwareAliases.workspaceId, readable);
  const limit = query.limit;
  switch (query.key) {
    case 'name':
      return (
        await db
          .selectDistinct({ v: softwareAliases.name })
          .from(softwareAliases)
          .where(and(scope, startsWith(softwareAliases.name, query.starts_with)))
          .orderBy(softwareAliases.name)
          .limit(limit)
      ).map((r) => r.v);
    case 'account':
      return (
        await db
          .selectDistinct({ v: workspaceView.slug })
          .from(softwareAliases)
          .innerJoin(workspaceView, eq(workspaceView.id, softwareAliases.workspaceId))
          .where(and(scope, startsWith(workspaceView.slug, query.starts_with)))
          .orderBy(workspaceView.slug)
          .limit(limit)
      ).map((r) => r.v);
    case 'user':
      return (
        await db
          .selectDistinct({ v: userView.username })
          .from(softwareAliases)
          .innerJoin(userView, eq(userView.id, softwareAliases.creatorId))
          .where(and(scope, startsWith(userView.username, query.starts_with)))
          .orderBy(userView.username)
          .limit(limit)
      ).map((r) => r.v);
    case 'status':
      return ['queued', 'building', 'built', 'error'].filter((s) =>
        s.startsWith(query.starts_with.toLowerCase()),
      );
  }
}

/** An alias of the workspace, by id or name. */
export async function findAlias(
  db: Db,
  access: WorkspaceAccess,
  key: { id: number } | { name: string },
): Promise<{ access: WorkspaceAccess; alias: SoftwareAlias }> {
  const [alias] = await db
    .select()
    .from(softwareAliases)
    .where(
      and(
        eq(softwareAliases.workspaceId, access.workspace.id),
        'id' in key ? eq(softwareAliases.id, key.id) : eq(softwareAliases.name, key.name),
      ),
    );
  if (!alias) throw aliasNotFound();
  return { access, alias };
}

export async function aliasDetails(db: Db, access: WorkspaceAccess, key: { id: number } | { name: string }) {
  const { alias } = await findAlias(db, access, key);
  return (await presentAliases(db, [alias]))[0]!;
}

/**
 * `DELETE .../alias/name/{name}`: its creator or the workspace's admins; its unused environments on
 * this server are freed later (gc.ts: directories no build points at). Answers the archives outside
 * this server (`gs://`, vm_gcp's bucket) that no build points at any more: the caller deletes them,
 * since nothing would find them later.
 */
export async function deleteAlias(db: Db, access: WorkspaceAccess, name: string): Promise<string[]> {
  const { alias } = await findAlias(db, access, { name });
  if (alias.creatorId !== access.user.id && !access.isAdmin)
    throw permissionDenied(
      `Only the creator of ${alias.name} and admins of ${access.workspace.name} can delete it.`,
    );
  const outside = (
    await db
      .selectDistinct({ location: softwareBuilds.location })
      .from(softwareBuilds)
      .innerJoin(softwareSpecs, eq(softwareSpecs.id, softwareBuilds.specId))
      .where(and(eq(softwareSpecs.aliasId, alias.id), startsWith(softwareBuilds.location, OUTSIDE_PREFIX)))
  ).flatMap((r) => (r.location ? [r.location] : []));
  await db.delete(softwareAliases).where(eq(softwareAliases.id, alias.id));
  if (outside.length === 0) return [];
  // An identical archive is shared by content hash: another alias's build may still point at it.
  const still = new Set(
    (
      await db
        .selectDistinct({ location: softwareBuilds.location })
        .from(softwareBuilds)
        .where(inArray(softwareBuilds.location, outside))
    ).map((r) => r.location),
  );
  return outside.filter((location) => !still.has(location));
}

/** A spec of the workspace, with its alias. */
async function findSpec(db: Db, access: WorkspaceAccess, specId: number) {
  const [row] = await db
    .select({ spec: softwareSpecs, alias: softwareAliases })
    .from(softwareSpecs)
    .innerJoin(softwareAliases, eq(softwareAliases.id, softwareSpecs.aliasId))
    .where(and(eq(softwareSpecs.id, specId), eq(softwareSpecs.workspaceId, access.workspace.id)));
  if (!row) throw notFound('Spec not found.');
  return row;
}

export async function specDetails(db: Db, access: WorkspaceAccess, specId: number) {
  const { spec, alias } = await findSpec(db, access, specId);
  return (await presentSpecs(db, [spec], new Map([[alias.id, alias]])))[0]!;
}

/** `GET .../spec-yaml/{id}`: the spec as a conda environment.yml (pip requirements under `pip:`). */
export async function specYaml(db: Db, access: WorkspaceAccess, specId: number): Promise<string> {
  const { spec, alias } = await findSpec(db, access, specId);
  const quote = (s: string) => (/^[\w.=<>!~*,@:/+-]+$/.test(s) ? s : JSON.stringify(s));
  const pip = [
    ...(spec.rawPip ?? []),
    ...spec.packages.filter((p) => p.include && p.name !== 'python').map((p) => `${p.name}${p.specifier}`),
  ];
  const conda =
    (spec.rawConda?.dependencies as unknown[] | undefined)?.filter(
      (d): d is string => typeof d === 'string',
    ) ?? [];
  const python = spec.pythonSpecifier ? [`python${spec.pythonSpecifier.replace(/^==/, '=')}`] : [];
  const channels = (spec.rawConda?.channels as string[] | undefined) ?? [];
  const lines = [`name: ${quote(alias.name)}`];
  if (channels.length) lines.push('channels:', ...channels.map((c) => `  - ${quote(c)}`));
  lines.push('dependencies:', ...[...python, ...conda].map((d) => `  - ${quote(d)}`));
  if (pip.length) lines.push('  - pip', '  - pip:', ...pip.map((p) => `      - ${quote(p)}`));
  return `${lines.join('\n')}\n`;
}

export async function aliasSpecs(db: Db, access: WorkspaceAccess, aliasId: number, page: OffsetQuery) {
  const { alias } = await findAlias(db, access, { id: aliasId });
  const where = eq(softwareSpecs.aliasId, alias.id);
  const { rows, count } = await paginate(
    page,
    db.select().from(softwareSpecs).where(where).orderBy(desc(softwareSpecs.id)),
    db.$count(softwareSpecs, where),
  );
  return { items: await presentSpecs(db, rows, new Map([[alias.id, alias]])), count };
}

/** Builds of an alias (all its specs) or of one spec, newest first. */
export async function listBuilds(
  db: Db,
  access: WorkspaceAccess,
  of: { aliasId: number } | { specId: number },
  page: OffsetQuery,
) {
  const alias =
    'aliasId' in of
      ? (await findAlias(db, access, { id: of.aliasId })).alias
      : (await findSpec(db, access, of.specId)).alias;
  const where =
    'aliasId' in of
      ? inArray(
          softwareBuilds.specId,
          db
            .select({ id: softwareSpecs.id })
            .from(softwareSpecs)
            .where(eq(softwareSpecs.aliasId, of.aliasId)),
        )
      : eq(softwareBuilds.specId, of.specId);
  const { rows, count } = await paginate(
    page,
    db.select().from(softwareBuilds).where(where).orderBy(desc(softwareBuilds.id)),
    countRows(db.select({ n: sql<number>`count(*)::int` }).from(softwareBuilds).where(where)),
  );
  return { items: rows.map((b) => presentBuild(b, alias)), count };
}

/** A build of the workspace, with its alias. */
export async function findBuild(db: Db, access: WorkspaceAccess, buildId: number) {
  const [row] = await db
    .select({ build: softwareBuilds, alias: softwareAliases })
    .from(softwareBuilds)
    .innerJoin(softwareSpecs, eq(softwareSpecs.id, softwareBuilds.specId))
    .innerJoin(softwareAliases, eq(softwareAliases.id, softwareSpecs.aliasId))
    .where(and(eq(softwareBuilds.id, buildId), eq(softwareBuilds.workspaceId, access.workspace.id)));
  if (!row) throw buildNotFound();
  return row;
}

export async function buildDetails(db: Db, access: WorkspaceAccess, buildId: number) {
  const { build, alias } = await findBuild(db, access, buildId);
  return presentBuild(build, alias);
}

/** `GET .../build/logs/{id}`: log lines in order, a page at a time; `nextToken` continues where this page ended. */
export async function buildLogs(
  db: Db,
  access: WorkspaceAccess,
  buildId: number,
  query: z.infer<typeof buildLogsQuery>,
) {
  await findBuild(db, access, buildId);
  const after = query.pageToken ? Number(query.pageToken) : 0;
  const rows = await db
    .select()
    .from(softwareBuildLogs)
    .where(and(eq(softwareBuildLogs.buildId, buildId), gt(softwareBuildLogs.id, after)))
    .orderBy(asc(softwareBuildLogs.id))
    .limit(query.limit);
  return {
    events: rows.map((r) => ({ eventId: String(r.id), timestamp: r.timestampMs, message: r.message })),
    nextToken: String(rows.at(-1)?.id ?? after),
  };
}

/** The lockfile of a built build, as text (`pip install -r` reads it). */
export async function buildLockfile(db: Db, access: WorkspaceAccess, buildId: number): Promise<string> {
  const { build } = await findBuild(db, access, buildId);
  if (!build.lockfile) throw notFound('This build has no lockfile: it has not been built.');
  return build.lockfile;
}
