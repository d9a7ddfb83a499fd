import type { AwsSecret } from './clients.js';

/** Where and how a workspace's instances run (its credentials, region, network and settings). */
export interface Ec2Placement {
  secret: AwsSecret;
  region: string;
  subnetIds: string[];
  securityGroupId: string | null;
  instanceProfileArn: string | null;
  settings: {
    worker_instance_types: string[];
    scheduler_instance_types: string[];
    spot: boolean;
    spot_on_demand_fallback: boolean;
    disk_size_gib: number;
    /** Region → the image instances boot (x86_64 unless set otherwise). */
    amis: Partial<Record<string, string>>;
    /** Region → the image arm64 types boot. */
    arm_amis?: Partial<Record<string, string>>;
    /** Region → the image GPU types boot (else their architecture's). */
    gpu_amis?: Partial<Record<string, string>>;
  };
}
