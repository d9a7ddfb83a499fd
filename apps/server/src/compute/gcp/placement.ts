import type { StoredVmSettings } from '../vm/cloud.js';
import type { GcpCredential } from './auth.js';

/** Where and how a workspace's Compute Engine instances run (what vm_gcp asks per launch). */
export interface GcePlacement {
  /** The workspace's service account key, or the server's own account (workload identity). */
  credential: GcpCredential;
  project: string;
  region: string;
  network: string;
  subnet: string;
  targetTags: string[];
  settings: StoredVmSettings & {
    /** The zone instances go to first (then the region's others). */
    zone?: string;
  };
}
