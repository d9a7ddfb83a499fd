import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  serial,
  text,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { createdAt, loopColumns, tstz } from '../columns.js';
import { workspaces } from '../identity/organizations.js';
import { users } from '../identity/users.js';

/** Build states as clients know them, no other strings. */
export const BUILD_STATES = ['queued', 'building', 'built', 'error'] as const;
export type BuildState = (typeof BUILD_STATES)[number];
export const buildState = pgEnum('software_build_state', BUILD_STATES);

/** One requirement of a spec. */
export interface SpecPackage {
  name: string;
  specifier: string;
  source: 'pip' | 'conda';
  conda_name: string | null;
  client_version: string | null;
  include: boolean;
  channel: string | null;
  /** An uploaded wheel this requirement installs (package_files.id). */
  file: number | null;
  requested?: boolean;
  error?: string | null;
}

/** What a client's scan of its local environment found. */
export interface ScanResult {
  platform: string | null;
  base_prefix: string | null;
  prefix: string | null;
  /** Where the client's pip looks, as sent (credentials too: builds use them); answers hide them. */
  index_urls: string[];
  find_links?: string[];
  packages: Array<Record<string, unknown>>;
  errored_packages: Array<Record<string, unknown>>;
}

/** One package of a build's lockfile: exactly what was installed. */
export interface LockedPackage {
  name: string;
  version: string;
  /** `index` (from a package index), `file` (an uploaded wheel), `system` (the base interpreter's). */
  source: 'index' | 'file' | 'system';
  sha256: string | null;
}

/** A named environment of a workspace; its latest spec is what clusters of that name run. */
/** A remote build machine's phone-home (PATCH cluster_facing/software-environment/build/{id}). */
export interface BuildReport {
  state: 'building' | 'built' | 'error';
  reason?: string;
  lockfile?: string;
  packages?: LockedPackage[];
  sizeBytes?: number;
  /** Where the machine put the environment, when not uploaded here (an image, a bucket). */
  location?: string;
  /** The environment archive uploaded at start-upload's link, on this server's disk. */
  archive?: string;
}

export const softwareAliases = pgTable(
  'software_aliases',
  {
    id: serial('id').primaryKey(),
    workspaceId: integer('account_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 200 }).notNull(),
    creatorId: integer('creator_id').references(() => users.id, { onDelete: 'set null' }),
    /** Made by package sync from a client's environment (`package-sync-...`), not by a person. */
    packageSync: boolean('package_sync').notNull().default(false),
    created: createdAt(),
    updated: tstz('updated').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('software_aliases_account_name_key').on(t.workspaceId, t.name)],
);

/** What an environment should contain; the same content (md5) is one spec per alias. */
export const softwareSpecs = pgTable(
  'software_specs',
  {
    id: serial('id').primaryKey(),
    aliasId: integer('alias_id')
      .notNull()
      .references(() => softwareAliases.id, { onDelete: 'cascade' }),
    workspaceId: integer('account_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    creatorId: integer('creator_id').references(() => users.id, { onDelete: 'set null' }),
    /** The client's MD5 of the spec: equal content, equal md5. */
    md5: varchar('md5', { length: 32 }).notNull(),
    packages: jsonb('packages').$type<SpecPackage[]>().notNull().default([]),
    rawPip: jsonb('raw_pip').$type<string[] | null>(),
    rawConda: jsonb('raw_conda').$type<Record<string, unknown> | null>(),
    containerUri: text('container_uri'),
    useEntrypoint: boolean('use_entrypoint').notNull().default(true),
    gpuEnabled: boolean('gpu_enabled').notNull().default(false),
    architecture: varchar('architecture', { length: 16 }).notNull().default('x86_64'),
    pythonSpecifier: varchar('python_specifier', { length: 64 }),
    lockfileName: varchar('lockfile_name', { length: 200 }),
    lockfileContent: text('lockfile_content'),
    scan: jsonb('scan').$type<ScanResult | null>(),
    created: createdAt(),
  },
  (t) => [
    index('software_specs_alias_idx').on(t.aliasId, t.id),
    index('software_specs_md5_idx').on(t.aliasId, t.md5),
  ],
);

/**
 * One attempt to turn a spec into an environment, run by the build loop. A built environment is
 * identified by its lockfile's hash: builds that resolve to the same packages share one directory.
 */
export const softwareBuilds = pgTable(
  'software_builds',
  {
    id: serial('id').primaryKey(),
    specId: integer('spec_id')
      .notNull()
      .references(() => softwareSpecs.id, { onDelete: 'cascade' }),
    workspaceId: integer('account_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    state: buildState('state').notNull().default('queued'),
    reason: text('reason').notNull().default(''),
    backendType: varchar('backend_type', { length: 32 }).notNull(),
    regionName: varchar('region_name', { length: 64 }),
    /**
     * The machines it is for (x86_64, aarch64): a backend whose builds are per architecture
     * (vm_aws) builds it on a machine of that architecture, and only those machines run it.
     */
    architecture: varchar('architecture', { length: 16 }).notNull().default('x86_64'),
    /** Install exactly this lockfile (a rebuild of an archived build), not the spec's requirements. */
    fromLockfile: text('from_lockfile'),
    lockfile: text('lockfile'),
    lockedPackages: jsonb('locked_packages').$type<LockedPackage[] | null>(),
    lockfileHash: varchar('lockfile_hash', { length: 64 }),
    /** Where the environment is (local: a directory under the data dir); null until built or once archived. */
    location: text('location'),
    sizeBytes: bigint('size_bytes', { mode: 'number' }),
    /** Its files were removed by garbage collection; lockfile and logs remain. */
    archivedAt: tstz('archived_at'),
    started: tstz('started'),
    ended: tstz('ended'),
    /** SHA-256 of the bearer token the machine running this attempt calls back with (remote builders). */
    tokenHash: varchar('token_hash', { length: 64 }),
    /** What a remote build machine last reported (phone-home): its state, and its result once built. */
    report: jsonb('report').$type<BuildReport | null>(),
    ...loopColumns(),
    created: createdAt(),
  },
  (t) => [
    index('software_builds_spec_idx').on(t.specId, t.id),
    index('software_builds_spec_arch_idx').on(t.specId, t.architecture, t.id),
    index('software_builds_account_idx').on(t.workspaceId),
    index('software_builds_lockfile_idx').on(t.lockfileHash),
    uniqueIndex('software_builds_token_key').on(t.tokenHash),
  ],
);

/** Build output, appended as it comes, never rewritten. */
export const softwareBuildLogs = pgTable(
  'software_build_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    buildId: integer('build_id')
      .notNull()
      .references(() => softwareBuilds.id, { onDelete: 'cascade' }),
    timestampMs: bigint('timestamp_ms', { mode: 'number' }).notNull(),
    message: text('message').notNull(),
  },
  (t) => [index('software_build_logs_build_idx').on(t.buildId, t.id)],
);

/** Wheels uploaded to a workspace (package sync's local packages, the embedded index). */
export const packageFiles = pgTable(
  'package_files',
  {
    id: serial('id').primaryKey(),
    workspaceId: integer('account_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    fileName: varchar('file_name', { length: 300 }).notNull(),
    /** The project name, normalised (PEP 503): how the index lists it. */
    project: varchar('project', { length: 200 }).notNull(),
    /** The client's hash of the content it built from, and the MD5 of the file (hex). */
    clientMd5: varchar('client_md5', { length: 64 }).notNull(),
    md5: varchar('md5', { length: 32 }).notNull(),
    sha256: varchar('sha256', { length: 64 }),
    sizeBytes: bigint('size_bytes', { mode: 'number' }),
    uploaded: boolean('uploaded').notNull().default(false),
    creatorId: integer('creator_id').references(() => users.id, { onDelete: 'set null' }),
    created: createdAt(),
  },
  (t) => [
    uniqueIndex('package_files_account_name_md5_key').on(t.workspaceId, t.fileName, t.md5),
    index('package_files_project_idx').on(t.workspaceId, t.project),
  ],
);

export type SoftwareAlias = typeof softwareAliases.$inferSelect;
export type SoftwareSpec = typeof softwareSpecs.$inferSelect;
export type SoftwareBuild = typeof softwareBuilds.$inferSelect;
export type PackageFile = typeof packageFiles.$inferSelect;
