import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findInstanceProcesses, type LocalProcess } from '../../src/compute/local-processes.js';
import { loadConfig } from '../../src/config.js';
import type { Database } from '../../src/db/client.js';
import { findUserBy } from '../../src/domains/identity/auth/service.js';
import { createToken } from '../../src/domains/identity/tokens/service.js';
import { createServer, type Server } from '../../src/server.js';
import { FAST_TIMINGS } from './clusters.js';
import { openTestDatabase } from './database.js';
import { createUser } from './factories.js';
import { freePort, waitFor } from './wait.js';

const SERVER_DIR = path.resolve(import.meta.dirname, '../..');

export interface Answer {
  status: number;
  body: any;
}

/**
 * The real server as a child process (`src/main.ts`), so a test can SIGKILL it and start it again
 * on the same data: its own data directory (the embedded database lives there) and, with
 * DATABASE_URL, a PostgreSQL database of its own, dropped at cleanup. `seedToken()` makes a user
 * and an API token before the first start; `call()` speaks HTTP with that token.
 */
export class ServerProcess {
  readonly dataDir = mkdtempSync(path.join(tmpdir(), 'cumulus-process-'));
  child: ChildProcess | undefined;
  token = '';
  /** The PostgreSQL database made for this server (dropped at cleanup). */
  #database: Database | undefined;

  private constructor(
    readonly port: number,
    readonly env: Record<string, string>,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** `env` adds to (or overrides) fast loop timings; `databaseUrl` replaces the test database. */
  static async create(env: Record<string, string> = {}, options: { databaseUrl?: string } = {}) {
    const port = await freePort();
    const server = new ServerProcess(port, {});
    Object.assign(server.env, {
      ...FAST_TIMINGS,
      PORT: String(port),
      HOST: '127.0.0.1',
      CUMULUS_PUBLIC_URL: server.url,
      CUMULUS_DATA_DIR: server.dataDir,
      CUMULUS_SECRET: 'process-secret-process-secret-process-0123',
      CUMULUS_WEB_DIST: path.join(server.dataDir, 'no-console'),
      CUMULUS_DEFAULT_ENVIRONMENT: 'off',
      CUMULUS_WARM_PROCESSES: '0',
      CUMULUS_LOG_LEVEL: 'warn',
      ...env,
    });
    if (options.databaseUrl) server.env.DATABASE_URL = options.databaseUrl;
    else if (process.env.DATABASE_URL) {
      // A database of its own, as every test server has.
      const database = await openTestDatabase();
      server.env.DATABASE_URL = database.url!;
      server.#database = database;
    }
    return server;
  }

  /** Runs `write` on this server's data before the server process starts (it owns the data then). */
  async seed<T>(write: (setup: Server) => Promise<T>): Promise<T> {
    const database = this.#database;
    const setup = await createServer(loadConfig({ ...this.env }), database ? { database } : {});
    try {
      return await write(setup);
    } finally {
      await setup.close();
    }
  }

  /** A verified user and an API token, written before the server process owns the data. */
  async seedToken(): Promise<string> {
    this.token = await this.seed(async (setup) => {
      const user = await createUser({ server: setup } as never);
      const owner = (await findUserBy(setup.deps.db, 'id', user.id))!;
      return (await createToken(setup.deps.db, owner, { label: 'process' })).token;
    });
    return this.token;
  }

  /** Starts the server and waits until it answers. */
  async start(): Promise<void> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: SERVER_DIR,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...this.env },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    this.child = child;
    await waitFor(
      'the server to answer',
      async () => {
        if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
        return (await fetch(`${this.url}/api/health`)).ok;
      },
      90_000,
      100,
    );
  }

  get running(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Sends the signal and waits for the process to end. */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const child = this.child;
    if (!child || !this.running) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill(signal);
    await exited;
  }

  async call(method: string, p: string, body?: unknown): Promise<Answer> {
    const res = await fetch(`${this.url}${p}`, {
      method,
      headers: { authorization: `ApiToken ${this.token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {}
    return { status: res.status, body: parsed };
  }

  /**
   * Creates a cluster in the token user's workspace and waits until it is ready; answers its
   * details, and how to read them again (`details()`) and to stop it (`stop()`, waits for it).
   */
  async readyCluster(body: Record<string, unknown>) {
    const slug: string = (await this.call('GET', '/api/v2/user/me')).body.default_account.slug;
    const created = await this.call('POST', `/api/v2/clusters/account/${slug}/`, body);
    if (created.status !== 201)
      throw new Error(`create answered ${created.status}: ${JSON.stringify(created.body)}`);
    const at = `/api/v2/clusters/account/${slug}/id/${created.body.id}`;
    const details = async () => (await this.call('GET', at)).body;
    const first = await waitFor(
      'the cluster ready',
      async () => {
        const d = await details();
        return d.current_state?.state === 'ready' && d;
      },
      120_000,
    );
    return {
      id: created.body.id as number,
      slug,
      first,
      details,
      stop: async () => {
        await this.call('DELETE', at);
        await waitFor(
          'the cluster stopped',
          async () => (await details()).current_state.state === 'stopped',
          60_000,
        );
        await waitFor('no process left', async () => (await this.instanceProcesses()).length === 0, 30_000);
      },
    };
  }

  /** Live processes (agents and Dask) of the instances this server launched. */
  async instanceProcesses(): Promise<LocalProcess[]> {
    const kept: LocalProcess[] = [];
    for (const p of await findInstanceProcesses()) {
      const environ = await readFile(`/proc/${p.pid}/environ`, 'latin1').catch(() => '');
      if (environ.includes(`CUMULUS_SERVER=${this.url}\0`)) kept.push(p);
    }
    return kept;
  }

  /** Stops the server, kills what is left of its instances, drops its data. */
  async cleanup(): Promise<void> {
    await this.kill('SIGTERM');
    for (const p of await this.instanceProcesses()) {
      try {
        process.kill(-p.pgid, 'SIGKILL');
      } catch {}
    }
    await this.#database?.close();
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}
