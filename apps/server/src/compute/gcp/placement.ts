import type { StoredVmSettings } from '../vm/cloud.js';
import type { ServiceAccountKey } from './auth.js';

/** Where and how a workspace's Compute Engine instances run (what vm_gcp asks per launch). */
export interface GcePlacement {
  key: ServiceAccountKey;
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
