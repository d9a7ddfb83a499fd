import type { StoredVmSettings } from '../vm/cloud.js';
import type { AwsSecret } from './clients.js';

/** Where and how a workspace's instances run (its credentials, region, network and settings). */
export interface Ec2Placement {
  secret: AwsSecret;
  region: string;
  subnetIds: string[];
  securityGroupId: string | null;
  instanceProfileArn: string | null;
  settings: StoredVmSettings & {
    /** Region → the image instances boot (x86_64 unless set otherwise). */
    amis: Partial<Record<string, string>>;
    /** Region → the image arm64 types boot. */
    arm_amis?: Partial<Record<string, string>>;
    /** Region → the image GPU types boot (else their architecture's). */
    gpu_amis?: Partial<Record<string, string>>;
  };
}
