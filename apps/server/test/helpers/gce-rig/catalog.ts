/**
 * The rig's project: its regions, zones and machine types (a small slice of Compute Engine's real
 * catalogue, with real names and sizes), and the URLs Compute Engine writes resources with.
 */
export const REGIONS: Record<string, string[]> = {
  'us-central1': ['us-central1-a', 'us-central1-b', 'us-central1-c', 'us-central1-f'],
  'europe-west1': ['europe-west1-b', 'europe-west1-c', 'europe-west1-d'],
  'us-east1': ['us-east1-b', 'us-east1-c', 'us-east1-d'],
};

/**
 * GPUs (`acceleratorTypes`), in the zones Google's GPU table lists them (a slice; T4s are in two of
 * us-east1's three zones), with how many one VM may have: attached to N1 types (`counts`), or
 * built into accelerator-optimized types (G2's L4s, A2's A100s).
 */
export interface AcceleratorTypeRow {
  name: string;
  description: string;
  maximumCardsPerInstance: number;
  /** The counts an N1 VM may attach; none: only built into its machine types. */
  counts?: number[];
  zones: string[];
}

export const ACCELERATOR_TYPES: AcceleratorTypeRow[] = [
  {
    name: 'nvidia-tesla-t4',
    description: 'NVIDIA T4',
    maximumCardsPerInstance: 4,
    counts: [1, 2, 4],
    zones: [
      'us-central1-a',
      'us-central1-b',
      'us-central1-c',
      'us-central1-f',
      'us-east1-c',
      'us-east1-d',
      'europe-west1-b',
      'europe-west1-c',
      'europe-west1-d',
    ],
  },
  {
    name: 'nvidia-l4',
    description: 'NVIDIA L4',
    maximumCardsPerInstance: 8,
    zones: ['us-central1-a', 'us-central1-b', 'us-central1-c', 'us-east1-b', 'us-east1-c', 'us-east1-d'],
  },
  {
    name: 'nvidia-tesla-a100',
    description: 'NVIDIA A100 40GB',
    maximumCardsPerInstance: 16,
    zones: ['us-central1-a', 'us-central1-b', 'us-central1-c', 'us-central1-f', 'us-east1-b'],
  },
];
const zonesOf = (accelerator: string) => ACCELERATOR_TYPES.find((a) => a.name === accelerator)!.zones;

export interface MachineTypeRow {
  name: string;
  guestCpus: number;
  memoryMb: number;
  architecture: 'X86_64' | 'ARM64';
  /** Zones it is offered in (all of the project's when absent), as real types are not everywhere. */
  zones?: string[];
  /** The GPUs it comes with (accelerator-optimized types), as Compute Engine lists them. */
  accelerators?: { guestAcceleratorType: string; guestAcceleratorCount: number }[];
}

export const MACHINE_TYPES: MachineTypeRow[] = [
  { name: 'e2-standard-2', guestCpus: 2, memoryMb: 8192, architecture: 'X86_64' },
  { name: 'e2-standard-4', guestCpus: 4, memoryMb: 16384, architecture: 'X86_64' },
  { name: 'e2-standard-8', guestCpus: 8, memoryMb: 32768, architecture: 'X86_64' },
  { name: 'e2-highmem-2', guestCpus: 2, memoryMb: 16384, architecture: 'X86_64' },
  { name: 'n2-standard-2', guestCpus: 2, memoryMb: 8192, architecture: 'X86_64' },
  { name: 'n2-standard-4', guestCpus: 4, memoryMb: 16384, architecture: 'X86_64' },
  { name: 'n2-standard-8', guestCpus: 8, memoryMb: 32768, architecture: 'X86_64' },
  { name: 'n2-standard-16', guestCpus: 16, memoryMb: 65536, architecture: 'X86_64' },
  { name: 'n2-highmem-4', guestCpus: 4, memoryMb: 32768, architecture: 'X86_64' },
  { name: 'n1-standard-4', guestCpus: 4, memoryMb: 15360, architecture: 'X86_64' },
  { name: 'n1-standard-8', guestCpus: 8, memoryMb: 30720, architecture: 'X86_64' },
  {
    name: 'g2-standard-4',
    guestCpus: 4,
    memoryMb: 16384,
    architecture: 'X86_64',
    zones: zonesOf('nvidia-l4'),
    accelerators: [{ guestAcceleratorType: 'nvidia-l4', guestAcceleratorCount: 1 }],
  },
  {
    name: 'a2-highgpu-1g',
    guestCpus: 12,
    memoryMb: 87040,
    architecture: 'X86_64',
    zones: zonesOf('nvidia-tesla-a100'),
    accelerators: [{ guestAcceleratorType: 'nvidia-tesla-a100', guestAcceleratorCount: 1 }],
  },
  {
    name: 't2a-standard-4',
    guestCpus: 4,
    memoryMb: 16384,
    architecture: 'ARM64',
    zones: ['us-central1-a', 'us-central1-b', 'us-central1-f', 'europe-west1-b'],
  },
];

/** Numeric ids as Compute Engine gives them (uint64 written as a decimal string). */
let nextId = 1_000_000_000_000_000_000n;
export function newId(): string {
  nextId += 7919n;
  return nextId.toString();
}

export const regionOf = (zone: string) => zone.replace(/-[a-z]$/, '');

export class Links {
  constructor(
    readonly base: string,
    readonly project: string,
  ) {}
  get projectLink() {
    return `${this.base}/compute/v1/projects/${this.project}`;
  }
  zone(zone: string) {
    return `${this.projectLink}/zones/${zone}`;
  }
  region(region: string) {
    return `${this.projectLink}/regions/${region}`;
  }
  global(kind: string, name: string) {
    return `${this.projectLink}/global/${kind}/${name}`;
  }
}

/** The last path segments of a resource URL, full or partial (`zones/us-central1-a/machineTypes/n2-standard-4`). */
export function lastSegments(url: string, n: number): string[] {
  return url.split('/').filter(Boolean).slice(-n);
}
