import type { RegistryLogin } from '../../compute/podman.js';
import type { Deps } from '../../deps.js';

/**
 * What the software domain asks of clusters, which sit above it and run on its builds. Software
 * never imports clusters: server.ts hands these in, made from what clusters export.
 */
export interface SoftwarePorts {
  /** A build ended (built or failed): the clusters waiting for it look again now. */
  buildEnded(buildId: number): Promise<void>;
  /** The builds clusters that have not ended run on (kept by the environments' collection). */
  buildsOfClusters(): Promise<number[]>;
  /** The workspace's login for the registry an image is on, if it set one up (the cloud domain's). */
  registryLogin(workspaceId: number, image: string): Promise<RegistryLogin | null>;
}

/** Deps of the software domain's loops. */
export type SoftwareDeps = Deps & { softwarePorts: SoftwarePorts };
