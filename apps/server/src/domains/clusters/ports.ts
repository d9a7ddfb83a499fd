import type { RegistryLogin } from '../../compute/podman.js';
import type { Db } from '../../db/client.js';
import type { IdentityDeps } from '../identity/index.js';

/**
 * What the clusters domain asks of the domains above it (batch, billing, cloud). Clusters sit below them
 * and never import them: server.ts hands these in, made from what those domains export.
 */
export interface ClusterPorts {
  /** Refuses a new or resumed cluster where a usage limit is reached (billing). */
  assertMayStart(db: Db, workspace: { id: number; organizationId: number }, userId: number): Promise<void>;
  /**
   * The new cluster takes on these batch jobs, inside its create transaction (batch); `inContainer`:
   * its environment is a container image (a job with `run_in_container` needs one).
   */
  attachBatchJobs(
    tx: Db,
    workspace: { id: number; name: string },
    clusterId: number,
    jobIds: number[],
    cluster: { inContainer: boolean },
  ): Promise<void>;
  /** What a batch cluster's instances set up before running its tasks (bootstrap's `batch`); null otherwise. */
  batchSetup(db: Db, clusterId: number): Promise<{ job_ids: number[]; host_setup: string[] } | null>;
  /** The workspace's login for the registry `image` is on, where it set one up (cloud); else null. */
  registryLogin(workspaceId: number, image: string): Promise<RegistryLogin | null>;
}

/** Deps of the calls that start clusters or answer their instances. */
export type ClusterDeps = IdentityDeps & { clusterPorts: ClusterPorts };
