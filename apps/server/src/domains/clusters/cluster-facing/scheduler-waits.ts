/**
 * How long a held bootstrap goes between two looks at the database: the scheduler may have reported
 * to another server sharing it (this server's own reports wake the waiters at once).
 */
export const RECHECK_MS = 500;

/**
 * Workers whose agents wait for their scheduler's address in one held bootstrap
 * (`?wait_for_scheduler=`) instead of asking every few milliseconds: a start's CPU is what a
 * cluster's start waits for on a small machine, and each bootstrap is a dozen statements.
 */
export class SchedulerWaits {
  private readonly waiting = new Map<number, Set<() => void>>();
  private closed = false;

  constructor(private readonly recheckMs = RECHECK_MS) {}

  /**
   * The address `look()` finds, looked for again when this server hears the cluster's scheduler
   * report (wake), every RECHECK_MS (by default), and once more at the end: null when `ms` went by without
   * one, the caller went away (`signal`), or the server is closing.
   */
  async until(clusterId: number, ms: number, look: () => Promise<string | null>, signal: AbortSignal) {
    const deadline = Date.now() + ms;
    for (;;) {
      const address = await look();
      const left = deadline - Date.now();
      if (address || left <= 0 || signal.aborted || this.closed) return address;
      await this.sleep(clusterId, Math.min(left, this.recheckMs), signal);
    }
  }

  /** The cluster's scheduler reported its address to this server: its waiting workers look now. */
  wake(clusterId: number): void {
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
