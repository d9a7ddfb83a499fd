import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config.js';
import { findUserBy } from '../../src/domains/identity/auth/service.js';
import { createToken } from '../../src/domains/identity/tokens/service.js';
import { createServer } from '../../src/server.js';
import { FAST_TIMINGS } from './clusters.js';
import { openTestDatabase } from './database.js';
import { createUser } from './factories.js';
import { freePort } from './wait.js';

const SERVER_DIR = path.resolve(import.meta.dirname, '../..');

export interface ChildServer {
  url: string;
  dataDir: string;
  /** An API token of a user made before the server started, and their workspace. */
  token: string;
  slug: string;
  child: ChildProcess;
  /** Everything the server wrote to stdout (its log) so far. */
  log(): string;
  /** Calls the API with the token; JSON in and out. */
  call(method: string, p: string, body?: unknown): Promise<{ status: number; body: any }>;
  stop(): Promise<void>;
}

/**
 * The real server (`src/main.ts` under tsx) in a process of its own, as an operator runs it, with
 * text logs at info on stdout: what takes down this process shows as its exit, not as a test's
 * error. `preload` modules are imported first (`--import`), to inject faults at the edge.
 */
export async function startChildServer(
  options: { env?: Record<string, string>; preload?: string[] } = {},
): Promise<ChildServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cumulus-child-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = {
    ...FAST_TIMINGS,
    PORT: String(port),
    HOST: '127.0.0.1',
    CUMULUS_PUBLIC_URL: url,
    CUMULUS_DATA_DIR: dataDir,
    CUMULUS_SECRET: 'child-secret-child-secret-child-secret-0123',
    CUMULUS_WEB_DIST: path.join(dataDir, 'no-console'),
    CUMULUS_DEFAULT_ENVIRONMENT: 'off',
    CUMULUS_WARM_PROCESSES: '0',
    CUMULUS_LOG_FORMAT: 'text',
    CUMULUS_LOG_LEVEL: 'info',
    ...options.env,
  };
  // With PostgreSQL, a database of its own (created here, dropped at stop).
  const database = process.env.DATABASE_URL ? await openTestDatabase() : undefined;
  if (database?.url) env.DATABASE_URL = database.url;

  // A user and token, written before the server process owns the data directory.
  const setup = await createServer(loadConfig({ ...env }), database ? { database } : {});
  const user = await createUser({ server: setup } as never);
  const owner = (await findUserBy(setup.deps.db, 'id', user.id))!;
  const { token } = await createToken(setup.deps.db, owner, { label: 'child server' });
  await setup.close();

  const imports = ['tsx', ...(options.preload ?? [])].flatMap((m) => ['--import', m]);
  const child = spawn(process.execPath, [...imports, 'src/main.ts'], {
    cwd: SERVER_DIR,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let log = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    log += chunk;
  });
  const call = async (method: string, p: string, body?: unknown) => {
    const res = await fetch(`${url}${p}`, {
      method,
      headers: { authorization: `ApiToken ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      // A connection a test left open may hold a graceful stop: it has 15 s.
      const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(kill);
    }
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await answering(url, child);
  } catch (err) {
    await stop();
    throw err;
  }
  const slug = (await call('GET', '/api/v2/user/me')).body.default_account.slug as string;
  return { url, dataDir, token, slug, child, log: () => log, call, stop };
}

/** Waits until the server answers its health check; fails at once if its process ended. */
async function answering(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (child.exitCode === null && child.signalCode === null) {
    if (
      await fetch(`${url}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    if (Date.now() > deadline) throw new Error('the server did not answer within 60 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the server exited (${child.exitCode ?? child.signalCode}) before it answered`);
}
