import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { archiveBucketName } from '../../../compute/gcp/archives.js';
import { cloudSetupRegions, cloudSetups } from '../../../db/schema/index.js';
import type { Deps } from '../../../deps.js';
import { ApiError, fieldError } from '../../../http/errors.js';
import type { WorkspaceAccess } from '../../identity/index.js';
import { storedCredentials } from '../credentials.js';
import { guardClustersInCloud } from '../guard.js';
import { refreshWorkspaceBackend } from '../workspace-backend.js';
import { getRegions } from './aws.js';
import { regionRows } from './aws-account.js';
import type {
  gcpGlobalAnswer,
  gcpGlobalBody,
  gcpRegionsBody,
  gcpSettingsPatch,
  gcpSettingsSchema,
} from './schemas.js';

/**
 * GCP setup of a workspace: network, firewall CIDR, target tags, regions and settings, stored
 * and checked by shape against its service account key's project. Nothing here calls Google: the
 * `available-*` lists answer what the settings name, and the archive bucket the global setup
 * names is made by the workspace's first build (compute/gcp/archives.ts).
 */
type GcpGlobal = { network: string; firewall_cidr: string | null; target_tags: string[] };
type GcpSettings = z.infer<typeof gcpSettingsSchema>;

export const DEFAULT_GCP_SETTINGS: GcpSettings = {
  worker_instance_types: ['e2-standard-4'],
  scheduler_instance_types: ['e2-standard-4'],
  spot: false,
  spot_on_demand_fallback: true,
  disk_size_gib: 50,
};

async function setupRow(deps: Deps, workspaceId: number) {
  const [row] = await deps.db
    .select()
    .from(cloudSetups)
    .where(and(eq(cloudSetups.workspaceId, workspaceId), eq(cloudSetups.provider, 'gcp')));
  return row;
}

async function projectOf(deps: Deps, workspaceId: number): Promise<string | null> {
  return (await storedCredentials(deps.db, workspaceId, 'gcp'))?.summary.project_id ?? null;
}

/**
 * The bucket vm_gcp keeps the workspace's environment archives in (compute/gcp/archives.ts, made
 * by its first build, not here: setup calls no Google API); none with the server's own account
 * (workload identity: no key signs the links), whose archives stay on this server.
 */
async function archiveBucketOf(deps: Deps, workspaceId: number): Promise<string | null> {
  const stored = await storedCredentials(deps.db, workspaceId, 'gcp');
  const project = stored?.summary.project_id;
  if (!stored || !project || stored.kind === 'workload_identity') return null;
  return archiveBucketName(project, workspaceId, deps.config.publicUrl);
}

function present(
  global: GcpGlobal | null,
  project: string | null,
  bucket: string | null,
): z.infer<typeof gcpGlobalAnswer> {
  return {
    configured: !!global,
    project_id: project,
    network: global?.network ?? null,
    firewall_cidr: global?.firewall_cidr ?? null,
    target_tags: global?.target_tags ?? [],
    archive_bucket: global ? bucket : null,
  };
}

export async function getGcpGlobal(deps: Deps, access: WorkspaceAccess) {
  const { workspace } = access;
  const row = await setupRow(deps, workspace.id);
  return present(
    (row?.global as GcpGlobal | null) ?? null,
    await projectOf(deps, workspace.id),
    await archiveBucketOf(deps, workspace.id),
  );
}

async function upsert(
  deps: Deps,
  workspaceId: number,
  values: { global?: GcpGlobal; settings?: Record<string, unknown> },
) {
  await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(cloudSetups)
      .where(and(eq(cloudSetups.workspaceId, workspaceId), eq(cloudSetups.provider, 'gcp')));
    const set = {
      ...(values.global && { global: values.global as unknown as Record<string, unknown> }),
      ...(values.settings && { settings: { ...row?.settings, ...values.settings } }),
    };
    if (row)
      await tx
        .update(cloudSetups)
        .set({ ...set, updated: new Date() })
        .where(eq(cloudSetups.id, row.id));
    else await tx.insert(cloudSetups).values({ workspaceId, provider: 'gcp', ...set });
    await refreshWorkspaceBackend(tx, workspaceId);
  });
}

export async function setGcpGlobal(deps: Deps, access: WorkspaceAccess, body: z.infer<typeof gcpGlobalBody>) {
  const { workspace } = access;
  const project = await projectOf(deps, workspace.id);
  if (!project)
    throw new ApiError(409, {
      detail: 'Add GCP credentials to this workspace first.',
      code: 'NO_CLOUD_SETUP',
    });
  const global: GcpGlobal = {
    network: body.network ?? 'default',
    firewall_cidr: body.firewall_cidr ?? null,
    target_tags: body.target_tags ?? ['cumulus-cluster'],
  };
  await upsert(deps, workspace.id, { global });
  return present(global, project, await archiveBucketOf(deps, workspace.id));
}

export async function setGcpRegions(
  deps: Deps,
  access: WorkspaceAccess,
  body: z.infer<typeof gcpRegionsBody>,
) {
  const { workspace } = access;
  const row = await setupRow(deps, workspace.id);
  const global = row?.global as GcpGlobal | null;
  if (!global)
    throw new ApiError(409, {
      detail: 'Set up GCP for the workspace first (gcp/global).',
      code: 'NO_CLOUD_SETUP',
    });
  await deps.db.transaction(async (tx) => {
    const existing = await regionRows(tx, workspace.id, 'gcp');
    const wanted =
      body.regions.find((r) => r.default)?.region ??
      existing.find((r) => r.isDefault)?.region ??
      body.regions[0]!.region;
    for (const r of body.regions) {
      const network = { network: global.network, subnet: r.subnet ?? global.network };
      await tx
        .insert(cloudSetupRegions)
        .values({ workspaceId: workspace.id, provider: 'gcp', region: r.region, network })
        .onConflictDoUpdate({
          target: [cloudSetupRegions.workspaceId, cloudSetupRegions.provider, cloudSetupRegions.region],
          set: { network },
        });
    }
    for (const r of await regionRows(tx, workspace.id, 'gcp'))
      await tx
        .update(cloudSetupRegions)
        .set({ isDefault: r.region === wanted })
        .where(eq(cloudSetupRegions.id, r.id));
    await refreshWorkspaceBackend(tx, workspace.id);
  });
  return getRegions(deps, access, 'gcp');
}

export async function deleteGcpSetup(deps: Deps, access: WorkspaceAccess, confirm: boolean) {
  const { workspace } = access;
  const row = await setupRow(deps, workspace.id);
  if (!row) return { deleted: false };
  await guardClustersInCloud(deps, workspace.id, 'gcp', confirm, 'Removing the GCP setup');
  await deps.db.transaction(async (tx) => {
    await tx
      .delete(cloudSetupRegions)
      .where(and(eq(cloudSetupRegions.workspaceId, workspace.id), eq(cloudSetupRegions.provider, 'gcp')));
    await tx.delete(cloudSetups).where(eq(cloudSetups.id, row.id));
    await refreshWorkspaceBackend(tx, workspace.id);
  });
  return { deleted: true };
}

export async function getGcpSettings(deps: Deps, access: WorkspaceAccess): Promise<GcpSettings> {
  const { workspace } = access;
  const row = await setupRow(deps, workspace.id);
  return { ...DEFAULT_GCP_SETTINGS, ...(row?.settings as Partial<GcpSettings>) };
}

export async function patchGcpSettings(
  deps: Deps,
  access: WorkspaceAccess,
  body: z.infer<typeof gcpSettingsPatch>,
) {
  const { workspace } = access;
  if (body.zone !== undefined) {
    // The zone launches try first: one of a set-up region's (the backend asks Compute Engine which).
    const regions = (await regionRows(deps.db, workspace.id, 'gcp')).map((r) => r.region);
    if (!regions.some((r) => new RegExp(`^${r}-[a-z]$`).test(body.zone!)))
      throw fieldError(
        'zone',
        regions.length
          ? `"${body.zone}" is not a zone of ${regions.length === 1 ? 'the region' : 'a region'} set up for this workspace (${regions.join(', ')}).`
          : 'Set up a GCP region for this workspace first (gcp/regions): the zone is one of its.',
      );
  }
  await upsert(deps, workspace.id, { settings: body });
  return getGcpSettings(deps, access);
}

/** What the settings name (no call to Google is made): networks, a region's subnets, target tags. */
export async function gcpNames(
  deps: Deps,
  access: WorkspaceAccess,
  what: 'networks' | 'subnets' | 'target-tags',
  region?: string,
) {
  const { workspace } = access;
  const global = ((await setupRow(deps, workspace.id))?.global as GcpGlobal | null) ?? null;
  const regions = await regionRows(deps.db, workspace.id, 'gcp');
  const items =
    what === 'networks'
      ? [...new Set(['default', ...(global ? [global.network] : [])])]
      : what === 'subnets'
        ? regions
            .filter((r) => !region || r.region === region)
            .map((r) => String((r.network as { subnet?: string }).subnet))
        : (global?.target_tags ?? []);
  return { items, source: 'settings' as const };
}
