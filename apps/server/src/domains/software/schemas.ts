import { itemsOf, offsetQuery } from '../../http/pagination.js';
import { id, queryBool, text, z } from '../../http/zod.js';

export const workspaceParams = z.object({ account: text(64) });
export const idParams = z.object({ account: text(64), id });
export const pkParams = z.object({ account: text(64), pk: id });
export const nameParams = z.object({ account: text(64), name: text(200).min(1) });

const architecture = z.enum(['x86_64', 'aarch64']);
const md5Hex = z.string().regex(/^[0-9a-f]{32}$/i, 'Enter an MD5 digest as 32 hexadecimal characters.');

/** A requirement as clients send it. */
export const specPackageInput = z.object({
  name: text(200).min(1),
  source: z.enum(['pip', 'conda']).default('pip'),
  channel: text(500).nullish(),
  conda_name: text(200).nullish(),
  specifier: text(500).default(''),
  include: z.boolean().default(true),
  client_version: text(100).nullish(),
  file: id.nullish(),
});

/** `POST software-environment/account/{ws}`. */
export const createSpecBody = z.object({
  name: text(200)
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'Use letters, digits, dots, dashes and underscores.')
    .nullish(),
  container: text(500).nullish(),
  force_rebuild: z.boolean().default(false),
  md5: md5Hex.nullish(),
  use_entrypoint: z.boolean().nullish(),
  gpu_enabled: z.boolean().default(false),
  architecture: architecture.default('x86_64'),
  region_name: text(64).nullish(),
  enable_experimental_installer: z.boolean().default(false),
  packages: z.array(specPackageInput).max(5000).nullish(),
  raw_pip: z.array(text(2000)).max(5000).nullish(),
  raw_conda: z
    .object({
      channels: z.array(text(500)).max(100).default([]),
      dependencies: z
        .array(z.union([text(500), z.record(z.string(), z.unknown())]))
        .max(5000)
        .default([]),
    })
    .loose()
    .nullish(),
  lockfile_name: text(200).nullish(),
  lockfile_content: z.string().max(4_000_000).nullish(),
  /** What the client's scan found (package sync), kept for the Local Environment tab. */
  scan: z
    .object({
      platform: text(100).nullish(),
      base_prefix: text(1000).nullish(),
      prefix: text(1000).nullish(),
      /** Where the client's pip looks (its configuration): package-sync builds look there too. */
      index_urls: z.array(text(1000)).max(50).default([]),
      find_links: z.array(text(1000)).max(50).default([]),
      packages: z.array(z.record(z.string(), z.unknown())).max(5000).default([]),
      errored_packages: z.array(z.record(z.string(), z.unknown())).max(5000).default([]),
    })
    .nullish(),
});
export type CreateSpecBody = z.infer<typeof createSpecBody>;

export const buildSchema = z.object({
  id: z.number().int(),
  spec_id: z.number().int(),
  alias_id: z.number().int(),
  alias_name: z.string(),
  state: z.enum(['queued', 'building', 'built', 'error']),
  reason: z.string(),
  created: z.string(),
  started: z.string().nullable(),
  ended: z.string().nullable(),
  backend_type: z.string(),
  region_name: z.string().nullable(),
  size_bytes: z.number().int().nullable(),
  archived: z.boolean().describe('Its files were removed by garbage collection; a rebuild restores them.'),
  lockfile_hash: z.string().nullable(),
  packages: z
    .array(
      z.object({
        name: z.string(),
        version: z.string(),
        source: z.enum(['index', 'file', 'system']),
        sha256: z.string().nullable(),
      }),
    )
    .describe('What the build installed (its lockfile), empty until built.'),
});

const specPackageSchema = z.object({
  name: z.string(),
  specifier: z.string(),
  source: z.enum(['pip', 'conda']),
  conda_name: z.string().nullable(),
  client_version: z.string().nullable(),
  include: z.boolean(),
  channel: z.string().nullable(),
  file: z.object({ id: z.number().int(), file_name: z.string() }).nullable(),
  requested: z.boolean(),
  error: z.string().nullable(),
});

export const specSchema = z.object({
  id: z.number().int(),
  md5: z.string(),
  alias_id: z.number().int(),
  created: z.string(),
  creator_id: z.number().int().nullable(),
  gpu_enabled: z.boolean(),
  architecture: z.string(),
  packages: z.array(specPackageSchema),
  raw_pip: z.array(z.string()).nullable(),
  raw_conda: z.record(z.string(), z.unknown()).nullable(),
  has_raw_pip: z.boolean(),
  has_raw_conda: z.boolean(),
  container_uri: z.string().nullable(),
  use_entrypoint: z.boolean(),
  python_specifier: z.string().nullable(),
  lockfile_name: z.string().nullable(),
  scan_result: z
    .object({
      id: z.number().int(),
      platform: z.string().nullable(),
      base_prefix: z.string().nullable(),
      prefix: z.string().nullable(),
      index_urls: z.array(z.string()).describe('The client’s package indexes, their credentials hidden.'),
      find_links: z.array(z.string()).describe('The client’s find-links, their credentials hidden.'),
      packages: z.array(z.record(z.string(), z.unknown())),
      errored_packages: z.array(z.record(z.string(), z.unknown())),
    })
    .nullable(),
  latest_build_id: z.number().int().nullable(),
  latest_build: buildSchema.nullable(),
});

export const aliasSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  account_slug: z.string(),
  account: z.object({ id: z.number().int(), slug: z.string(), name: z.string() }),
  organization: z.object({ id: z.number().int(), name: z.string() }),
  creator: z.object({ id: z.number().int(), username: z.string() }).nullable(),
  package_sync: z.boolean(),
  spec_count: z.number().int(),
  status: z.string().nullable().describe("The latest build's state (null: no build yet)."),
  disk_bytes: z.number().int().describe("Disk its environments take on this server's backend."),
  created: z.string(),
  updated: z.string(),
  latest_spec: specSchema.nullable(),
});

export const aliasListQuery = offsetQuery.extend({ include_package_sync: queryBool.default(false) });

/** `GET software-environment/alias`: environments across the caller's scope, filtered and ordered. */
export const scopedAliasQuery = offsetQuery.extend({
  name: text(200).optional(),
  package_sync: queryBool.optional(),
  account: text(64).optional(),
  organization: id.optional(),
  user: id.optional(),
  compound_scope: text(64).optional(),
  custom_staff_scope: text(64).optional(),
  creator: text(150).optional().describe('Only environments this username created.'),
  status: z.enum(['queued', 'building', 'built', 'error']).optional(),
  order_by: z.enum(['name', 'package_sync', 'status', 'updated', 'created']).default('updated'),
  order_by_direction: z.enum(['asc', 'desc']).default('desc'),
});

export const valuesQuery = z.object({
  key: z.enum(['name', 'account', 'user', 'status']),
  starts_with: text(200),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

export const buildLogsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(5000).default(500),
  pageToken: z
    .string()
    .regex(/^\d{1,18}$/, 'Enter the nextToken of the previous page.')
    .optional(),
});

export const buildLogsSchema = z.object({
  events: z.array(z.object({ eventId: z.string(), timestamp: z.number().int(), message: z.string() })),
  nextToken: z.string().nullable(),
});

export const packageUploadBody = z.object({
  name: text(300).regex(/^[A-Za-z0-9._+-]+\.whl$/, 'Upload a wheel: a file name ending in .whl.'),
  md5: z.string().trim().min(1).max(64),
  wheel_md5: z.string().regex(/^[A-Za-z0-9+/]{22}==$/, 'Send the base64 of the MD5 digest of the file.'),
  region_name: text(64).nullish(),
});

export const packageUploadSchema = z.object({
  should_upload: z.boolean(),
  upload_url: z.string().nullable(),
  id: z.number().int(),
});

export const aliasPage = itemsOf(aliasSchema);
export const specPage = itemsOf(specSchema);
export const buildPage = itemsOf(buildSchema);
