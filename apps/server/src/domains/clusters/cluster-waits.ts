/**
 * How long a held request goes between two looks at the database: what it waits for may have been
 * reported to another server sharing it (this server's own reports wake the waiters at once).
 */
export const RECHECK_MS = 500;

/**
 * Requests held until something of a cluster changes, instead of asked again every few
 * milliseconds (a start's CPU is what a cluster's start waits for on a small machine): workers'
 * agents waiting for their scheduler's address (`bootstrap?wait_for_scheduler=`), woken when the
 * scheduler reports; clients waiting for a starting cluster's details to change
 * (`?wait_for_change=`), woken by any state transition of the cluster (`stateChanged`).
 */
export class ClusterWaits {
  private readonly waiting = new Map<number, Set<() => void>>();
  /** Per cluster with a request held: how many wakes came (one during a look is not lost). */
  private readonly wakes = new Map<number, { holders: number; count: number }>();
  private closed = false;

  constructor(private readonly recheckMs = RECHECK_MS) {}

  /**
   * What `look()` finds, looked for again when this server hears of a change (wake: also one that
   * came while it looked), every RECHECK_MS (by default), and once more at the end: null when `ms`
   * went by without it, the caller went away (`signal`), or the server is closing.
   */
  async until<T>(clusterId: number, ms: number, look: () => Promise<T | null>, signal: AbortSignal) {
    const deadline = Date.now() + ms;
    const woken = this.wakes.get(clusterId) ?? { holders: 0, count: 0 };
    this.wakes.set(clusterId, woken);
    woken.holders++;
    try {
      for (;;) {
        const before = woken.count;
        const found = await look();
        const left = deadline - Date.now();
        if (found || left <= 0 || signal.aborted || this.closed) return found;
        if (woken.count === before) await this.sleep(clusterId, Math.min(left, this.recheckMs), signal);
      }
    } finally {
      if (--woken.holders === 0) this.wakes.delete(clusterId);
    }
  }

  /** What they wait for may have come (the cluster's scheduler reported to this server): its waiters look now. */
  wake(clusterId: number): void {
    const woken = this.wakes.get(clusterId);
    if (woken) woken.count++;
    for (const resume of this.waiting.get(clusterId) ?? []) resume();
  }

  /** The server is closing: every held bootstrap answers now with what it has. */
  close(): void {
    this.closed = true;
    for (const set of this.waiting.values()) for (const resume of set) resume();
  }

  private sleep(clusterId: number, ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const set = this.waiting.get(clusterId) ?? new Set<() => void>();
      this.waiting.set(clusterId, set);
      const resume = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', resume);
        set.delete(resume);
        if (set.size === 0 && this.waiting.get(clusterId) === set) this.waiting.delete(clusterId);
        resolve();
      };
      const timer = setTimeout(resume, ms);
      signal.addEventListener('abort', resume, { once: true });
      set.add(resume);
    });
  }

  /** How many requests are held now (for tests: none is left behind). */
  get held(): number {
    let count = 0;
    for (const set of this.waiting.values()) count += set.size;
    return count;
  }
}

/** The waits of each server of this process that hear every state transition (transitions.ts). */
const hearing = new Set<ClusterWaits>();

/** `waits` is woken by every state transition of a cluster from now on; the returned function ends that. */
export function hearStateChanges(waits: ClusterWaits): () => void {
  hearing.add(waits);
  return () => hearing.delete(waits);
}

/** A cluster, one of its processes or instances changed state (after the change is committed). */
export function stateChanged(clusterId: number): void {
  for (const waits of hearing) waits.wake(clusterId);
}
