import { final, retryable } from '../errors.js';

/** A host as placement sees it: what it offers, and what already runs there. */
export interface HostRoom {
  id: number;
  name: string;
  cores: number;
  memoryMib: number;
  /** GPUs registered with the host (device indices 0 .. gpus-1). */
  gpus: number;
  usedCores: number;
  usedMemoryMib: number;
  /** The GPU indices instances placed there already hold. */
  usedGpuDevices: readonly number[];
}

/** What one instance asks of a host. */
export interface Request {
  cores: number;
  memoryMib: number;
  /** GPUs, each a device of its own on the host (0: none). */
  gpus: number;
}

const gib = (mib: number) => `${(mib / 1024).toFixed(1).replace(/\.0$/, '')} GiB`;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const freeGpus = (h: HostRoom) => h.gpus - h.usedGpuDevices.length;

/**
 * The host an instance goes to: of those with room for it, the one it fills best (least room left
 * after it: GPUs first, then cores, then memory), so that large instances, and those asking GPUs,
 * still find a host with room later. None with room: a final error when no host could ever hold it
 * (saying GPUs where no host has as many as it asks), a retryable one while they are only full.
 */
export function placeOn<H extends HostRoom>(hosts: readonly H[], asked: Request): H {
  const gpus = asked.gpus > 0 ? ` and ${plural(asked.gpus, 'GPU')}` : '';
  const what = gpus
    ? `${plural(asked.cores, 'core')}, ${gib(asked.memoryMib)}${gpus}`
    : `${plural(asked.cores, 'core')} and ${gib(asked.memoryMib)}`;
  if (hosts.length === 0)
    throw final(
      'This workspace has no healthy SSH host to run on: register one (POST /api/v2/ssh-hosts/{workspace}) or see why its hosts fail their check.',
    );
  const withGpus = hosts.filter((h) => h.gpus >= asked.gpus);
  if (withGpus.length === 0)
    throw final(
      `No SSH host of this workspace has ${plural(asked.gpus, 'GPU')}: ${gpuCounts(hosts)}. Ask for fewer GPUs per instance, or register a host with more (its gpus).`,
    );
  const big = withGpus.filter((h) => h.cores >= asked.cores && h.memoryMib >= asked.memoryMib);
  if (big.length === 0) {
    const largest = [...withGpus].sort((a, b) => b.cores - a.cores || b.memoryMib - a.memoryMib)[0]!;
    throw final(
      `No SSH host of this workspace has ${what}: the largest${asked.gpus > 0 ? ` with ${plural(asked.gpus, 'GPU')}` : ''}, ${largest.name}, has ${largest.cores} cores and ${gib(largest.memoryMib)}.`,
    );
  }
  const fits = big.filter(
    (h) =>
      h.cores - h.usedCores >= asked.cores &&
      h.memoryMib - h.usedMemoryMib >= asked.memoryMib &&
      freeGpus(h) >= asked.gpus,
  );
  const left = (h: H) => [
    freeGpus(h) - asked.gpus,
    h.cores - h.usedCores - asked.cores,
    h.memoryMib - h.usedMemoryMib - asked.memoryMib,
  ];
  const best = fits.sort((a, b) => {
    const [ga, ca, ma] = left(a);
    const [gb, cb, mb] = left(b);
    return ga! - gb! || ca! - cb! || ma! - mb! || a.id - b.id;
  })[0];
  if (!best)
    throw retryable(
      `Every SSH host that could hold ${what} is full (${big
        .map(
          (h) =>
            `${h.name}: ${h.cores - h.usedCores} of ${h.cores} cores${asked.gpus > 0 ? ` and ${freeGpus(h)} of ${plural(h.gpus, 'GPU')}` : ''} free`,
        )
        .join(', ')}); waiting for room.`,
    );
  return best;
}

/** The hosts' GPU counts as a refusal names them: `rig-2 (127.0.0.2) has 1, rig-3 (127.0.0.3) has none`. */
export function gpuCounts(hosts: readonly { name: string; gpus: number }[]): string {
  if (hosts.length === 0) return 'it has no healthy host';
  return [...hosts]
    .sort((a, b) => b.gpus - a.gpus || a.name.localeCompare(b.name))
    .map((h) => `${h.name} has ${h.gpus > 0 ? h.gpus : 'none'}`)
    .join(', ');
}

/**
 * The GPU indices an instance asking `count` gets on a host of `gpus`: the lowest that no other
 * instance there holds. Placement checked there are enough.
 */
export function gpuDevicesFor(gpus: number, taken: readonly number[], count: number): number[] {
  const free = Array.from({ length: gpus }, (_, i) => i).filter((i) => !taken.includes(i));
  if (free.length < count)
    throw retryable(
      `Only ${free.length} of the host's ${gpus} GPUs are free (${count} asked); waiting for room.`,
    );
  return free.slice(0, count);
}

/**
 * What an instance's processes may see of its host's GPUs (`CUDA_VISIBLE_DEVICES`): exactly its own
 * devices; on a host with GPUs, an instance asking none sees none (""), not another's. Undefined on
 * a host without GPUs.
 */
export function cudaVisibleDevices(hostGpus: number, devices: readonly number[]): string | undefined {
  return hostGpus > 0 || devices.length > 0 ? devices.join(',') : undefined;
}

/**
 * The hosts an instance may go to when its cluster named host labels (`worker_vm_types`,
 * `scheduler_vm_types`): those carrying any of them; all of them when it named none. A final
 * error, naming the labels the hosts do carry, when no healthy host carries one.
 */
export function withLabels<H extends { labels: readonly string[] }>(
  hosts: readonly H[],
  labels: readonly string[],
): H[] {
  if (labels.length === 0 || hosts.length === 0) return [...hosts];
  const carrying = hosts.filter((h) => h.labels.some((l) => labels.includes(l)));
  if (carrying.length > 0) return carrying;
  const known = [...new Set(hosts.flatMap((h) => h.labels))].sort();
  const asked = labels.length === 1 ? `the label ${labels[0]}` : `any of the labels ${labels.join(', ')}`;
  throw final(
    `No healthy SSH host of this workspace carries ${asked} (asked by the cluster's vm types): ${
      known.length ? `its hosts carry ${known.join(', ')}` : 'its hosts carry no labels'
    }.`,
  );
}
