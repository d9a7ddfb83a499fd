/**
 * The instance types Cumulus knows: cores, memory, GPUs and list price. Clusters pick theirs from
 * it (the cluster dialog, `vm-types/` for clients choosing by cores and memory), backends size
 * machines by it and metering prices minutes by it (usage/prices.ts).
 */
export type VmBackendType = 'vm_aws' | 'vm_gcp' | 'vm_azure';
export type VmArch = 'x86_64' | 'arm64';

export interface VmType {
  name: string;
  backendType: VmBackendType;
  cores: number;
  memoryMib: number;
  gpus: number;
  gpuName: string;
  arch: VmArch;
  /** Instance-store disks come with it (NVMe), beside the boot volume. */
  localDisk: boolean;
  /** List price, dollars per hour (on demand, a common region). */
  hourlyUsd: number;
}

const vm = (
  name: string,
  backendType: VmBackendType,
  cores: number,
  memoryGib: number,
  hourlyUsd: number,
  extra: Partial<VmType> = {},
): VmType => ({
  name,
  backendType,
  cores,
  memoryMib: Math.round(memoryGib * 1024),
  gpus: 0,
  gpuName: '',
  arch: 'x86_64',
  localDisk: false,
  hourlyUsd,
  ...extra,
});

const arm = { arch: 'arm64' } as const;
const nvme = { localDisk: true } as const;
const t4 = (gpus = 1) => ({ gpus, gpuName: 'nvidia-tesla-t4' });
const a10g = (gpus = 1) => ({ gpus, gpuName: 'nvidia-a10g' });

/** The types clients default to and their common neighbours. */
export const VM_TYPES: readonly VmType[] = [
  // AWS, general purpose
  vm('t3.medium', 'vm_aws', 2, 4, 0.0416),
  vm('t3.large', 'vm_aws', 2, 8, 0.0832),
  vm('t3.xlarge', 'vm_aws', 4, 16, 0.1664),
  vm('m5.large', 'vm_aws', 2, 8, 0.096),
  vm('m5.xlarge', 'vm_aws', 4, 16, 0.192),
  vm('m5.2xlarge', 'vm_aws', 8, 32, 0.384),
  vm('m6i.large', 'vm_aws', 2, 8, 0.096),
  vm('m6i.xlarge', 'vm_aws', 4, 16, 0.192),
  vm('m6i.2xlarge', 'vm_aws', 8, 32, 0.384),
  vm('m6i.4xlarge', 'vm_aws', 16, 64, 0.768),
  vm('m6id.xlarge', 'vm_aws', 4, 16, 0.2373, nvme),
  vm('m6g.xlarge', 'vm_aws', 4, 16, 0.154, arm),
  vm('m7g.large', 'vm_aws', 2, 8, 0.0816, arm),
  vm('m7g.xlarge', 'vm_aws', 4, 16, 0.1632, arm),
  vm('m7g.2xlarge', 'vm_aws', 8, 32, 0.3264, arm),
  // AWS, compute and memory optimised
  vm('c6i.xlarge', 'vm_aws', 4, 8, 0.17),
  vm('c6i.2xlarge', 'vm_aws', 8, 16, 0.34),
  vm('c7g.xlarge', 'vm_aws', 4, 8, 0.145, arm),
  vm('r6i.xlarge', 'vm_aws', 4, 32, 0.252),
  vm('r6i.2xlarge', 'vm_aws', 8, 64, 0.504),
  // AWS, GPU
  vm('g4dn.xlarge', 'vm_aws', 4, 16, 0.526, { ...t4(), ...nvme }),
  vm('g4dn.2xlarge', 'vm_aws', 8, 32, 0.752, { ...t4(), ...nvme }),
  vm('g5.xlarge', 'vm_aws', 4, 16, 1.006, { ...a10g(), ...nvme }),
  // GCP
  vm('e2-standard-2', 'vm_gcp', 2, 8, 0.067),
  vm('e2-standard-4', 'vm_gcp', 4, 16, 0.134),
  vm('e2-standard-8', 'vm_gcp', 8, 32, 0.268),
  vm('n1-standard-4', 'vm_gcp', 4, 15, 0.19),
  vm('n2-standard-4', 'vm_gcp', 4, 16, 0.194),
  vm('t2a-standard-4', 'vm_gcp', 4, 16, 0.154, arm),
  // Azure
  vm('Standard_D2_v5', 'vm_azure', 2, 8, 0.096),
  vm('Standard_D4_v5', 'vm_azure', 4, 16, 0.192),
  vm('Standard_D8_v5', 'vm_azure', 8, 32, 0.384),
  vm('Standard_D4ps_v5', 'vm_azure', 4, 16, 0.154, arm),
];

const BY_NAME = new Map(VM_TYPES.map((t) => [t.name, t]));

export const vmType = (name: string): VmType | undefined => BY_NAME.get(name);

/** Credits an hour of the type costs: 1 credit = 1 core-hour, a GPU counts as 10 cores. */
export const creditsPerHour = (t: Pick<VmType, 'cores' | 'gpus'>): number => t.cores + 10 * t.gpus;

/** What `vm-types/` filters on; every bound inclusive, memory in MiB. */
export interface VmTypeFilter {
  backendType?: VmBackendType;
  arch?: VmArch;
  cores?: number;
  coresGte?: number;
  coresLte?: number;
  gpus?: number;
  gpusGte?: number;
  gpusLte?: number;
  gpuName?: string;
  memory?: number;
  memoryGte?: number;
  memoryLte?: number;
  excludeLocalDisk?: boolean;
}

const within = (value: number, exact?: number, gte?: number, lte?: number) =>
  (exact === undefined || value === exact) &&
  (gte === undefined || value >= gte) &&
  (lte === undefined || value <= lte);

/** The catalogue's types that pass every filter given, cheapest first (then by name). */
export function findVmTypes(filter: VmTypeFilter): VmType[] {
  return VM_TYPES.filter(
    (t) =>
      (!filter.backendType || t.backendType === filter.backendType) &&
      (!filter.arch || t.arch === filter.arch) &&
      within(t.cores, filter.cores, filter.coresGte, filter.coresLte) &&
      within(t.gpus, filter.gpus, filter.gpusGte, filter.gpusLte) &&
      within(t.memoryMib, filter.memory, filter.memoryGte, filter.memoryLte) &&
      (!filter.gpuName || t.gpuName === filter.gpuName) &&
      !(filter.excludeLocalDisk && t.localDisk),
  ).sort((a, b) => a.hourlyUsd - b.hourlyUsd || a.name.localeCompare(b.name));
}

/** The machine of a catalogue type, as backends size instances (arch in build words: aarch64). */
export function machineShapeOf(name: string) {
  const t = vmType(name);
  return t
    ? {
        instanceType: t.name,
        cores: t.cores,
        memoryMib: t.memoryMib,
        gpus: t.gpus,
        arch: t.arch === 'arm64' ? 'aarch64' : 'x86_64',
      }
    : undefined;
}
