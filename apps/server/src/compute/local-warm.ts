import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { randomHex } from '../lib/crypto.js';
import { BACKEND_ID_VAR, processesChanged } from './local-processes.js';

export interface WarmPoolOptions {
  /** Interpreter with `distributed` (CUMULUS_PYTHON). */
  python: string;
  /** Warm processes wait in `<dataDir>/warm`; which instance took which is recorded there too. */
  dataDir: string;
  /** How many wait (CUMULUS_WARM_PROCESSES); 0: none, every instance starts cold. */
  size: number;
  /** The environment they start from (nothing secret, nothing of a tenant's). */
  baseEnv: Record<string, string>;
  /** Where the agent's code is importable from (the sandbox's copy once tenancy is decided). */
  pythonPath: () => string;
  /** After a take, how long until the pool starts a replacement (not competing with that start). */
  refillDelayMs?: number;
}

/** What an instance tells the warm process it takes: who it runs as, where, with what. */
export interface Assignment {
  uid?: number;
  gid?: number;
  cwd: string;
  env: Record<string, string>;
}

interface Waiting {
  id: string;
  child: ChildProcess;
  lines: Interface;
}

const READY_TIMEOUT_MS = 60_000;
const TAKEN_TIMEOUT_MS = 10_000;

/** The next line a warm process says, or why there is none. */
function nextLine(w: Waiting, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => done(new Error(`no answer in ${timeoutMs / 1000} s`)), timeoutMs);
    const onLine = (line: string) => done(null, line);
    const onExit = (code: number | null) => done(new Error(`it exited (${code ?? 'signal'})`));
    function done(err: Error | null, line?: string) {
      clearTimeout(timer);
      w.lines.off('line', onLine);
      w.child.off('exit', onExit);
      err ? reject(err) : resolve(line!);
    }
    w.lines.once('line', onLine);
    w.child.once('exit', onExit);
  });
}

/**
 * Agents started before any cluster asks (cumulus/agent/warm.py: Dask imported, waiting on stdin),
 * so that a local cluster's start skips Python's start-up and imports. Each serves one instance and
 * is never given back; a take schedules a replacement a moment later. A warm process waits as the
 * server's user with nothing of a tenant's, and becomes the cluster's uid when taken. Its stdin is
 * the server's: if the server goes, the waiting ones exit; taken ones live on as instances.
 */
export class WarmPool {
  private readonly waiting: Waiting[] = [];
  private starting = 0;
  private closed = false;
  private refill: NodeJS.Timeout | undefined;
  private readonly dir: string;
  /** Which warm process each instance took (backend id -> warm id), as recorded in `dir`. */
  private takes: Promise<Map<string, string>> | undefined;

  constructor(private readonly options: WarmPoolOptions) {
    this.dir = path.join(options.dataDir, 'warm');
  }

  get size(): number {
    return this.options.size;
  }

  /** How many are ready to be taken now. */
  get ready(): number {
    return this.waiting.length;
  }

  /** Starts warm processes until `size` wait or are starting. */
  fill(): void {
    if (this.closed || this.options.size === 0) return;
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    while (this.waiting.length + this.starting < this.options.size) {
      this.starting++;
      void this.startOne()
        .then((w) => {
          if (w && !this.closed) this.waiting.push(w);
          else if (w) w.child.kill('SIGKILL');
        })
        .finally(() => {
          this.starting--;
        });
    }
  }

  private async startOne(): Promise<Waiting | null> {
    const id = `warm-${randomHex(8)}`;
    const child = spawn(this.options.python, ['-m', 'cumulus.agent.warm'], {
      cwd: this.dir,
      detached: true,
      stdio: ['pipe', 'pipe', 'ignore'],
      env: {
        ...this.options.baseEnv,
        HOME: this.dir,
        PYTHONPATH: this.options.pythonPath(),
        PYTHONUNBUFFERED: '1',
        [BACKEND_ID_VAR]: id,
      },
    });
    processesChanged();
    child.on('error', () => undefined);
    // Neither it nor its pipes keep the server running.
    child.unref();
    for (const stream of [child.stdin, child.stdout] as unknown as { unref?: () => void }[]) stream.unref?.();
    const w = { id, child, lines: createInterface({ input: child.stdout! }) };
    try {
      if ((await nextLine(w, READY_TIMEOUT_MS)) !== 'ready') throw new Error('not ready');
      return w;
    } catch {
      child.kill('SIGKILL');
      return null;
    }
  }

  /** A waiting process, if one is ready (a replacement is started a moment later). */
  take(): Waiting | undefined {
    const w = this.waiting.shift();
    if (w && !this.refill && !this.closed) {
      this.refill = setTimeout(() => {
        this.refill = undefined;
        this.fill();
      }, this.options.refillDelayMs ?? 1500);
      this.refill.unref();
    }
    return w;
  }

  /**
   * Makes `w` the instance `backendId`: records which warm process it took (a launch retried after
   * the server died here finds it), tells it, and waits until it runs as the instance's uid.
   */
  async assign(
    w: Waiting,
    backendId: string,
    assignment: Assignment,
  ): Promise<{ pid: number; warmId: string }> {
    await writeFile(this.recordOf(backendId), w.id, { mode: 0o600 });
    try {
      w.child.stdin!.write(`${JSON.stringify(assignment)}\n`);
      const answer = await nextLine(w, TAKEN_TIMEOUT_MS);
      if (answer !== 'taken') throw new Error(`it answered ${answer}`);
      return { pid: w.child.pid!, warmId: w.id };
    } catch (err) {
      w.child.kill('SIGKILL');
      await this.forget(backendId);
      throw err;
    } finally {
      w.lines.close();
      w.child.stdin!.destroy();
      w.child.stdout!.destroy();
      processesChanged();
    }
  }

  /**
   * The warm process an instance took, where a launch recorded one: what an instance whose launch
   * never returned (the server died meanwhile) is known by until its backend data says.
   */
  async recorded(backendId: string): Promise<string | undefined> {
    return (await this.recordedTakes()).get(backendId);
  }

  async forget(backendId: string): Promise<void> {
    (await this.recordedTakes()).delete(backendId);
    await rm(this.recordOf(backendId), { force: true });
  }

  /** The records, read from `dir` once (a server started after another finds its takes). */
  private recordedTakes(): Promise<Map<string, string>> {
    this.takes ??= (async () => {
      const names = (await readdir(this.dir).catch(() => [] as string[])).filter((n) => n.endsWith('.taken'));
      const entries = await Promise.all(
        names.map(
          async (n) =>
            [n.slice(0, -'.taken'.length), await readFile(path.join(this.dir, n), 'utf8')] as const,
        ),
      );
      return new Map(entries.filter(([, id]) => id));
    })();
    return this.takes;
  }

  private recordOf(backendId: string): string {
    return path.join(this.dir, `${path.basename(backendId)}.taken`);
  }

  /** Ends the waiting processes (the server closes); taken ones are instances and stay. */
  close(): void {
    this.closed = true;
    if (this.refill) clearTimeout(this.refill);
    for (const w of this.waiting.splice(0)) {
      w.lines.close();
      w.child.kill('SIGKILL');
    }
  }
}
