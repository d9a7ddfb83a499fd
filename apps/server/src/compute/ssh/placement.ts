import { final, retryable } from '../errors.js';

/** A host as placement sees it: what it offers, and what already runs there. */
export interface HostRoom {
  id: number;
  name: string;
  cores: number;
  memoryMib: number;
  usedCores: number;
  usedMemoryMib: number;
}

/** What one instance asks of a host. */
export interface Request {
  cores: number;
  memoryMib: number;
}

const gib = (mib: number) => `${(mib / 1024).toFixed(1).replace(/\.0$/, '')} GiB`;

/**
 * The host an instance goes to: of those with room for it, the one it fills best (least room left
 * after it, cores first), so that large instances still find a host with room later. None with room:
 * a final error when no host could ever hold it, a retryable one while they are only full.
 */
export function placeOn<H extends HostRoom>(hosts: readonly H[], asked: Request): H {
  const what = `${asked.cores} core${asked.cores === 1 ? '' : 's'} and ${gib(asked.memoryMib)}`;
  if (hosts.length === 0)
    throw final(
      'This workspace has no healthy SSH host to run on: register one (POST /api/v2/ssh-hosts/{workspace}) or see why its hosts fail their check.',
    );
  const big = hosts.filter((h) => h.cores >= asked.cores && h.memoryMib >= asked.memoryMib);
  if (big.length === 0) {
    const largest = [...hosts].sort((a, b) => b.cores - a.cores || b.memoryMib - a.memoryMib)[0]!;
    throw final(
      `No SSH host of this workspace has ${what}: the largest, ${largest.name}, has ${largest.cores} cores and ${gib(largest.memoryMib)}.`,
    );
  }
  const fits = big.filter(
    (h) => h.cores - h.usedCores >= asked.cores && h.memoryMib - h.usedMemoryMib >= asked.memoryMib,
  );
  const left = (h: H) => [
    h.cores - h.usedCores - asked.cores,
    h.memoryMib - h.usedMemoryMib - asked.memoryMib,
  ];
  const best = fits.sort((a, b) => {
    const [ca, ma] = left(a);
    const [cb, mb] = left(b);
    return ca! - cb! || ma! - mb! || a.id - b.id;
  })[0];
  if (!best)
    throw retryable(
      `Every SSH host that could hold ${what} is full (${big.map((h) => `${h.name}: ${h.cores - h.usedCores} of ${h.cores} cores free`).join(', ')}); waiting for room.`,
    );
  return best;
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
