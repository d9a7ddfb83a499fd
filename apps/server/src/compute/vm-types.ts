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
  /**
   * GPUs attached to it at launch where it has none of its own (Compute Engine's N1 types take
   * `guestAccelerators`): which kind, how many at once, and each one's list price per hour.
   */
  attachable?: { gpuName: string; counts: readonly number[]; hourlyUsd: number };
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
/** Compute Engine's T4, attached to an N1 type: 1, 2 or 4 of them (Google's GPU table). */
const attachT4 = { attachable: { gpuName: 'nvidia-tesla-t4', counts: [1, 2, 4], hourlyUsd: 0.35 } } as const;

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
  vm('n1-standard-4', 'vm_gcp', 4, 15, 0.19, attachT4),
  vm('n1-standard-8', 'vm_gcp', 8, 30, 0.38, attachT4),
  vm('n2-standard-4', 'vm_gcp', 4, 16, 0.194),
  vm('t2a-standard-4', 'vm_gcp', 4, 16, 0.154, arm),
  // GCP, GPU types whose GPUs come with them (accelerator-optimized G2 and A2)
  vm('g2-standard-4', 'vm_gcp', 4, 16, 0.7068, { gpus: 1, gpuName: 'nvidia-l4' }),
  vm('a2-highgpu-1g', 'vm_gcp', 12, 85, 3.6733, { gpus: 1, gpuName: 'nvidia-tesla-a100' }),
  // Azure
  vm('Standard_D2_v5', 'vm_azure', 2, 8, 0.096),
  vm('Standard_D4_v5', 'vm_azure', 4, 16, 0.192),
  vm('Standard_D8_v5', 'vm_azure', 8, 32, 0.384),
  vm('Standard_D4ps_v5', 'vm_azure', 4, 16, 0.154, arm),
];

const BY_NAME = new Map(VM_TYPES.map((t) => [t.name, t]));

export const vmType = (name: string): VmType | undefined => BY_NAME.get(name);

/**
 * Whether the type has `n` GPUs (of `kind`, where asked): its own, or as many attached to it
 * (`attachable`). Where the GPUs are attached, their kind and price per hour besides the type's.
 */
export function gpusOn(
  t: VmType,
  n: number,
  kind?: string,
): { attached: false } | { attached: true; gpuName: string; hourlyUsd: number } | null {
  if (t.gpus >= n && (!kind || t.gpuName === kind)) return { attached: false };
  const a = t.attachable;
  if (t.gpus === 0 && a && a.counts.includes(n) && (!kind || a.gpuName === kind))
    return { attached: true, gpuName: a.gpuName, hourlyUsd: a.hourlyUsd * n };
  return null;
}

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
