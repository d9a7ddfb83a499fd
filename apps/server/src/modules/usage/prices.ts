/**
 * What an instance-minute costs. Credits measure compute (1 credit = 1 core-hour; a GPU counts as
 * 10 cores); the Cumulus cost is credits at the organization's credit value; the approximate
 * cloud cost is the instance type's list price, or for local instances a rate per core and GiB.
 * All in millionths (micro-credits, micro-dollars): integers, never floats, once summed.
 */
export interface VmType {
  name: string;
  backendType: 'vm_aws' | 'vm_gcp' | 'vm_azure';
  cores: number;
  memoryMib: number;
  gpus: number;
  gpuName: string;
  arch: 'x86_64' | 'arm64';
  /** List price, dollars per hour (on demand, a common region). */
  hourlyUsd: number;
}

const vm = (
  name: string,
  backendType: VmType['backendType'],
  cores: number,
  memoryGib: number,
  hourlyUsd: number,
  extra: Partial<VmType> = {},
): VmType => ({
  name,
  backendType,
  cores,
  memoryMib: memoryGib * 1024,
  gpus: 0,
  gpuName: '',
  arch: 'x86_64',
  hourlyUsd,
  ...extra,
});

/** The instance types clients default to and their common neighbours. */
export const VM_TYPES: VmType[] = [
  vm('t3.medium', 'vm_aws', 2, 4, 0.0416),
  vm('m6i.large', 'vm_aws', 2, 8, 0.096),
  vm('m6i.xlarge', 'vm_aws', 4, 16, 0.192),
  vm('m6i.2xlarge', 'vm_aws', 8, 32, 0.384),
  vm('m5.xlarge', 'vm_aws', 4, 16, 0.192),
  vm('c6i.2xlarge', 'vm_aws', 8, 16, 0.34),
  vm('r6i.xlarge', 'vm_aws', 4, 32, 0.252),
  vm('m7g.xlarge', 'vm_aws', 4, 16, 0.1632, { arch: 'arm64' }),
  vm('m6g.xlarge', 'vm_aws', 4, 16, 0.154, { arch: 'arm64' }),
  vm('g4dn.xlarge', 'vm_aws', 4, 16, 0.526, { gpus: 1, gpuName: 'nvidia-tesla-t4' }),
  vm('e2-standard-4', 'vm_gcp', 4, 16, 0.134),
  vm('n1-standard-4', 'vm_gcp', 4, 15, 0.19),
  vm('t2a-standard-4', 'vm_gcp', 4, 16, 0.154, { arch: 'arm64' }),
  vm('Standard_D4_v5', 'vm_azure', 4, 16, 0.192),
];

export interface Rates {
  /** Local instances: dollars per core-hour and per GiB-hour. */
  localCoreHourUsd: number;
  localGibHourUsd: number;
}

/** One minute of an instance, in micro-credits and micro-dollars. */
export function minutePrice(
  machine: { instanceType: string; cores: number; memoryMib: number; gpus: number },
  rates: Rates,
  creditValueMicroUsd: number,
): { microCredits: number; microCloudCost: number; microCumulusCost: number } {
  const coreEquivalents = machine.cores + 10 * machine.gpus;
  const microCredits = Math.round((coreEquivalents * 1e6) / 60);
  const listed = VM_TYPES.find((t) => t.name === machine.instanceType);
  const hourly = listed
    ? listed.hourlyUsd
    : machine.cores * rates.localCoreHourUsd + (machine.memoryMib / 1024) * rates.localGibHourUsd;
  return {
    microCredits,
    microCloudCost: Math.round((hourly * 1e6) / 60),
    microCumulusCost: Math.round((microCredits * creditValueMicroUsd) / 1e6),
  };
}
