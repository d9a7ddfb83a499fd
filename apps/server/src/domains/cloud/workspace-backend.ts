import { and, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  type CloudProvider,
  cloudCredentials,
  cloudSetupRegions,
  cloudSetups,
  slurmClusters,
  sshHosts,
} from '../../db/schema/index.js';
import { clustersHoldingMachines } from '../clusters/index.js';
import { findWorkspace, setWorkspaceCloud } from '../identity/index.js';
import { recordCloudSetupComplete } from '../onboarding/index.js';

/** The backend type of each cloud's clusters. */
export const BACKEND_OF: Record<CloudProvider, string> = { aws: 'vm_aws', gcp: 'vm_gcp', azure: 'vm_azure' };
export const PROVIDER_NAME: Record<CloudProvider, string> = { aws: 'AWS', gcp: 'GCP', azure: 'Azure' };
/** Clouds this server can run clusters in (the others store credentials and settings only). */
export const RUNNABLE: readonly CloudProvider[] = ['aws', 'gcp'];

/**
 * Writes what the workspace shows of its cloud (`active_backend`, `setup_complete`,
 * `configured_customer_hosted`) from its credentials and setup, in the caller's transaction:
 * a cloud is set up once it has credentials, its global setup and a region (AWS: with a machine
 * image, so clusters can launch); new clusters run there once it is, and on this server's own
 * backend otherwise. A workspace with a Slurm cluster runs its new clusters there, and one with SSH
 * hosts on them, whatever its cloud (server.ts picks the backend in the same order).
 */
export async function refreshWorkspaceBackend(tx: Db, workspaceId: number): Promise<void> {
  const [creds, setups, regions, hosts, slurm] = await Promise.all([
    tx
      .select({ provider: cloudCredentials.provider })
      .from(cloudCredentials)
      .where(eq(cloudCredentials.workspaceId, workspaceId)),
    tx
      .select({ provider: cloudSetups.provider, settings: cloudSetups.settings })
      .from(cloudSetups)
      .where(and(eq(cloudSetups.workspaceId, workspaceId), isNotNull(cloudSetups.global))),
    tx
      .select({
        provider: cloudSetupRegions.provider,
        region: cloudSetupRegions.region,
        isDefault: cloudSetupRegions.isDefault,
      })
      .from(cloudSetupRegions)
      .where(eq(cloudSetupRegions.workspaceId, workspaceId)),
    tx.select({ id: sshHosts.id }).from(sshHosts).where(eq(sshHosts.workspaceId, workspaceId)).limit(1),
    tx
      .select({ id: slurmClusters.id })
      .from(slurmClusters)
      .where(eq(slurmClusters.workspaceId, workspaceId))
      .limit(1),
  ]);
  const has = (rows: { provider: string }[], p: string) => rows.some((r) => r.provider === p);
  const complete = (['aws', 'gcp'] as const).filter(
    (p) => has(creds, p) && has(setups, p) && has(regions, p) && (p !== 'aws' || canLaunch(setups, regions)),
  );
  const runnable = complete.find((p) => RUNNABLE.includes(p));
  await setWorkspaceCloud(tx, workspaceId, {
    configuredCustomerHosted: creds.length > 0,
    setupComplete: complete.length > 0,
    activeBackend:
      slurm.length > 0 ? 'slurm' : hosts.length > 0 ? 'ssh' : runnable ? BACKEND_OF[runnable] : 'in_process',
  });
  if (complete.length > 0) await recordCloudSetupComplete(tx, workspaceId);
}

/** AWS can launch once its default region has a machine image of either architecture (set, or found when the region was added). */
function canLaunch(
  setups: { provider: string; settings: Record<string, unknown> }[],
  regions: { provider: string; region: string; isDefault: boolean }[],
): boolean {
  const aws = regions.filter((r) => r.provider === 'aws');
  const region = (aws.find((r) => r.isDefault) ?? aws[0])?.region;
  const settings = setups.find((s) => s.provider === 'aws')?.settings;
  const image = (key: 'amis' | 'arm_amis') =>
    (settings?.[key] as Record<string, string> | undefined)?.[region ?? ''];
  return !!region && !!(image('amis') || image('arm_amis'));
}

/**
 * Clusters of the workspace on the cloud's backend that run or still hold machines there: what
 * changing the cloud's credentials or setup would strand.
 */
export const clustersInCloud = (db: Db, workspaceId: number, provider: CloudProvider) =>
  clustersHoldingMachines(db, workspaceId, BACKEND_OF[provider]);

/** The backend a workspace's new clusters run on, and (for a cloud) the default region clients are told. */
export async function chosenBackend(
  db: Db,
  workspaceId: number,
): Promise<{ type: string; options?: Record<string, unknown> }> {
  const workspace = await findWorkspace(db, workspaceId);
  if (!workspace || workspace.activeBackend === 'in_process') return { type: 'in_process' };
  const regions = await db
    .select({ region: cloudSetupRegions.region, isDefault: cloudSetupRegions.isDefault })
    .from(cloudSetupRegions)
    .where(and(eq(cloudSetupRegions.workspaceId, workspaceId), eq(cloudSetupRegions.provider, 'aws')))
    .orderBy(cloudSetupRegions.region);
  const region = regions.find((r) => r.isDefault);
  // Clusters may ask for any of the set-up regions (backend option `region_name`).
  return {
    type: workspace.activeBackend,
    options: { region_name: region?.region ?? null, regions: regions.map((r) => r.region) },
  };
}
