import type { FastifyBaseLogger } from 'fastify';

/**
 * Runs `tick` every `intervalMs`, or at once after `wake()`: for chores that claim no rows
 * (housekeeping); work on rows goes through the Runner (runner.ts). A tick that reports more work
 * (returns true) is followed immediately by another. Errors are logged and retried next tick.
 */
export class Periodic {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #stopped = true;
  #wakeRequested = false;

  constructor(
    readonly name: string,
    private readonly intervalMs: number,
    private readonly tick: () => Promise<boolean | undefined>,
    private readonly log: FastifyBaseLogger,
  ) {}

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#schedule(0);
  }

  wake(): void {
    if (this.#stopped) return;
    if (this.#running) {
      this.#wakeRequested = true;
      return;
    }
    this.#schedule(0);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
  }

  #schedule(delay: number): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#running = this.#run().finally(() => {
        this.#running = undefined;
      });
    }, delay);
    this.#timer.unref?.();
  }

  async #run(): Promise<void> {
    let more = false;
    try {
      more = (await this.tick()) === true;
    } catch (err) {
      this.log.error({ err, loop: this.name }, 'loop tick failed');
    }
    if (this.#stopped) return;
    const again = more || this.#wakeRequested;
    this.#wakeRequested = false;
    this.#schedule(again ? 0 : this.intervalMs);
  }
}
