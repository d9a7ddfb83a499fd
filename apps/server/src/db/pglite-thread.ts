import { Worker } from 'node:worker_threads';

/**
 * The embedded database (PGlite) in a worker thread of its own, so that its queries (WebAssembly
 * Postgres, run synchronously) do not hold up the event loop that serves requests: a batch of
 * 10,000 tasks spent about half of that loop's time inside PGlite. The thread runs the one PGlite
 * instance; this side is the part of PGlite's interface drizzle's PGlite driver uses (`query`,
 * `exec`, `transaction`) plus `listen` and `close`, each call a message.
 *
 * Same guarantees as PGlite in the serving thread: one session, statements one at a time, a
 * transaction holds the database until it ends (PGlite's own lock, in the thread), and a commit
 * is answered once PGlite has written it (a 2xx that follows survives a SIGKILL).
 */

export interface Results {
  rows: unknown[];
  fields: { name: string; dataTypeID: number }[];
  affectedRows?: number;
}

export interface QueryOptions {
  rowMode?: 'array' | 'object';
  /** Only which types are left as text is passed on: drizzle's parsers answer the text as is. */
  parsers?: Record<number, unknown>;
}

export interface PgliteThreadOptions {
  startParams: string[];
  relaxedDurability: boolean;
  /** A data directory archive (PGlite's dumpDataDir) to start from instead of an empty database. */
  loadDataDir?: string | undefined;
}

// The thread's code: it loads PGlite (and pg_trgm) from where this module resolves them.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const { PGlite } = await import(workerData.pglite);
  const { pg_trgm } = await import(workerData.pgTrgm);
  let db;
  try {
    const loadDataDir = workerData.loadDataDir
      ? new Blob([require('node:fs').readFileSync(workerData.loadDataDir)])
      : undefined;
    db = await PGlite.create(workerData.dir, {
      extensions: { pg_trgm },
      startParams: workerData.startParams,
      relaxedDurability: workerData.relaxedDurability,
      loadDataDir,
    });
  } catch (e) {
    parentPort.postMessage({ id: 0, error: failure(e) });
    return;
  }
  const txs = new Map();
  let nextTx = 1;
  const on = (m) => (m.tx ? txs.get(m.tx).tx : db);
  const options = (m) => ({
    rowMode: m.rowMode,
    parsers: Object.fromEntries((m.rawTypes ?? []).map((t) => [t, (v) => v])),
  });
  function failure(e) {
    const out = { message: String(e && e.message ? e.message : e) };
    for (const k of Object.keys(e ?? {})) if (typeof e[k] !== 'function' && typeof e[k] !== 'object') out[k] = e[k];
    return out;
  }
  const ops = {
    query: (m) => on(m).query(m.sql, m.params, options(m)),
    exec: (m) => on(m).exec(m.sql),
    listen: (m) => db.listen(m.channel, (payload) => parentPort.postMessage({ notify: m.channel, payload })).then(() => null),
    begin: () =>
      new Promise((began, failed) => {
        const id = nextTx++;
        let end;
        const ended = new Promise((r) => { end = r; });
        const done = db.transaction(async (tx) => {
          txs.set(id, { tx, end });
          began(id);
          if (!(await ended)) throw ROLLBACK;
        });
        txs.set(-id, done);
        done.catch((e) => { if (!txs.has(id)) failed(e); });
      }),
    end: async (m) => {
      const { end } = txs.get(m.tx);
      const done = txs.get(-m.tx);
      txs.delete(m.tx);
      txs.delete(-m.tx);
      end(m.commit);
      try { await done; } catch (e) { if (e !== ROLLBACK) throw e; }
      return null;
    },
    close: () => db.close().then(() => null),
  };
  const ROLLBACK = new Error('rollback');
  parentPort.on('message', (m) => {
    ops[m.op](m).then(
      (result) => parentPort.postMessage({ id: m.id, result }),
      (e) => parentPort.postMessage({ id: m.id, error: failure(e) }),
    );
  });
  parentPort.postMessage({ id: 0, result: 'ready' });
})();
`;

type Call = { op: string; tx?: number } & Record<string, unknown>;

/** A database error as PGlite raised it in the thread: its message, code, detail, constraint... */
function databaseError(fields: Record<string, unknown>): Error {
  return Object.assign(new Error(String(fields.message)), fields);
}

export class PgliteThread {
  readonly #worker: Worker;
  readonly #pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  readonly #listeners = new Map<string, (payload: string) => void>();
  #next = 1;

  private constructor(worker: Worker) {
    this.#worker = worker;
    type Message = { id?: number; result?: unknown; error?: Record<string, unknown> } & {
      notify?: string;
      payload?: string;
    };
    worker.on('message', (m: Message) => {
      if (m.notify !== undefined) {
        this.#listeners.get(m.notify)?.(m.payload!);
        return;
      }
      const call = this.#pending.get(m.id!);
      if (!call) return;
      this.#pending.delete(m.id!);
      // The thread keeps the process alive only while a call waits on it.
      if (this.#pending.size === 0) worker.unref();
      if (m.error) call.reject(databaseError(m.error));
      else call.resolve(m.result);
    });
    worker.on('error', (e) => this.#fail(e));
    // A thread that ended answers nothing more: what waits on it, and every later call, fails.
    worker.on('exit', (code) =>
      this.#fail(new Error(`The embedded database's thread ended (exit code ${code}).`)),
    );
  }

  #ended: Error | undefined;

  #fail(e: Error) {
    this.#ended ??= e;
    for (const call of this.#pending.values()) call.reject(e);
    this.#pending.clear();
  }

  /** Starts the thread and opens the database in `dir` there. */
  static async create(dir: string, options: PgliteThreadOptions): Promise<PgliteThread> {
    const worker = new Worker(WORKER, {
      eval: true,
      workerData: {
        dir,
        ...options,
        pglite: import.meta.resolve('@electric-sql/pglite'),
        pgTrgm: import.meta.resolve('@electric-sql/pglite/contrib/pg_trgm'),
      },
    });
    const thread = new PgliteThread(worker);
    const ready = new Promise((resolve, reject) => thread.#pending.set(0, { resolve, reject }));
    try {
      await ready;
    } catch (e) {
      await worker.terminate();
      throw e;
    }
    return thread;
  }

  #call<T>(message: Call): Promise<T> {
    if (this.#ended) return Promise.reject(this.#ended);
    const id = this.#next++;
    if (this.#pending.size === 0) this.#worker.ref();
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.#worker.postMessage({ ...message, id });
    });
  }

  #query(tx: number | undefined, sql: string, params: unknown[] = [], options: QueryOptions = {}) {
    return this.#call<Results>({
      op: 'query',
      tx,
      sql,
      params,
      rowMode: options.rowMode,
      rawTypes: Object.keys(options.parsers ?? {}).map(Number),
    });
  }

  query(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results> {
    return this.#query(undefined, sql, params, options);
  }

  exec(sql: string): Promise<Results[]> {
    return this.#call({ op: 'exec', sql });
  }

  /** Runs `fn` in a transaction: committed when it returns (answered once written), else rolled back. */
  async transaction<T>(fn: (tx: ThreadTransaction) => Promise<T>): Promise<T> {
    const tx = await this.#call<number>({ op: 'begin' });
    let result: T;
    try {
      result = await fn({
        query: (sql, params, options) => this.#query(tx, sql, params, options),
        exec: (sql) => this.#call({ op: 'exec', tx, sql }),
      });
    } catch (e) {
      await this.#call({ op: 'end', tx, commit: false });
      throw e;
    }
    await this.#call({ op: 'end', tx, commit: true });
    return result;
  }

  async listen(channel: string, callback: (payload: string) => void): Promise<void> {
    this.#listeners.set(channel, callback);
    await this.#call({ op: 'listen', channel });
  }

  async close(): Promise<void> {
    await this.#call({ op: 'close' });
    await this.#worker.terminate();
  }
}

export interface ThreadTransaction {
  query(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results>;
  exec(sql: string): Promise<Results[]>;
}
