import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { inject } from 'vitest';

import { killLeftoverInstances } from '../../../server/test/helpers/leftover-instances';
import { SmtpSink } from '../../../server/test/helpers/smtp';

const here = path.dirname(fileURLToPath(import.meta.url));
const serverDir = path.resolve(here, '../../../server');
const builtConsole = path.resolve(here, '../../dist');

export interface E2eServer {
  /** http://127.0.0.1:<port>, the origin of the console and the API. */
  base: string;
  smtp: SmtpSink;
  /**
   * Stops the server, hands its embedded database to `edit` (what no API offers yet, such as a
   * plan's limits), then starts it again on the same port and data. Sessions survive; pages left
   * open meanwhile would log failed requests, so edit between browser sessions.
   */
  withDatabase(edit: (database: PGlite) => Promise<void>): Promise<void>;
  /** The server's recent output (stdout and stderr), as its operator reads it. */
  log(): string;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

async function waitForHealth(base: string, child: ChildProcess, log: () => string, deadlineMs: number) {
  const deadline = Date.now() + deadlineMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server exited (${child.exitCode}):\n${log()}`);
    try {
      const response = await fetch(`${base}/api/health`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The server did not answer /api/health within ${deadlineMs} ms:\n${log()}`);
}

export interface E2eServerOptions {
  /**
   * More server settings, e.g. `{ CUMULUS_METER_MINUTE_SECONDS: '1' }` for a metered minute a second;
   * `{port}` in a value is the port the server listens on.
   */
  env?: Record<string, string>;
  /** The built console to serve (default apps/web/dist). */
  webDist?: string;
  /**
   * The migrated embedded database the server's starts as a copy of (default: the test run's, from
   * global-setup.ts; outside vitest, as in the benches, one of the caller's).
   */
  pgdataTemplate?: string;
}

/**
 * The real server, as `npm start` runs it (built: apps/server/dist, see global-setup.ts), serving
 * the BUILT console (apps/web/dist) on a free port, on a fresh embedded database (a copy of one
 * migrated for the run), with mail going to a real SMTP sink.
 */
export async function startE2eServer({
  env = {},
  webDist = builtConsole,
  pgdataTemplate,
}: E2eServerOptions = {}): Promise<E2eServer> {
  if (!existsSync(path.join(webDist, 'index.html'))) {
    throw new Error(`${webDist} has no console: build it first (npm run build -w apps/web).`);
  }
  const smtp = new SmtpSink();
  const smtpUrl = await smtp.start();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cumulus-e2e-'));
  // The server's embedded database (apps/server/src/server.ts: <data dir>/pgdata), migrated already.
  cpSync(pgdataTemplate ?? inject('pgdataTemplate'), path.join(dataDir, 'pgdata'), { recursive: true });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString('utf8'));
    if (output.length > 200) output.shift();
  };
  const log = () => output.join('');

  let child: ChildProcess | undefined;
  const launch = async () => {
    const started = spawn(process.execPath, ['dist/main.js'], {
      cwd: serverDir,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        CUMULUS_PUBLIC_URL: base,
        // No default environment build competing with the journeys (its own test is on the server).
        CUMULUS_DEFAULT_ENVIRONMENT: 'off',
        // Nor warm processes importing Dask beside the browser (the server and Python tests cover them).
        CUMULUS_WARM_PROCESSES: '0',
        CUMULUS_DATA_DIR: dataDir,
        CUMULUS_SMTP_URL: smtpUrl,
        CUMULUS_WEB_DIST: webDist,
        CUMULUS_LOG_LEVEL: 'warn',
        DATABASE_URL: '',
        // The journeys answer a hosted service's greeting (welcome survey, what's-new banner); a
        // self-hosted install shows neither (components' tests), a journey may say so with 'false'.
        CUMULUS_HOSTED_SERVICE: 'true',
        ...Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v.replaceAll('{port}', String(port))])),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = started;
    started.stdout?.on('data', keep);
    started.stderr?.on('data', keep);
    await waitForHealth(base, started, log, 90_000);
  };
  const stop = async () => {
    const running = child;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    const timer = setTimeout(() => running.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };

  const close = async () => {
    await stop();
    await killLeftoverInstances(dataDir);
    await smtp.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };

  const withDatabase = async (edit: (database: PGlite) => Promise<void>) => {
    await stop();
    const database = await PGlite.create(path.join(dataDir, 'pgdata'), { extensions: { pg_trgm } });
    try {
      await edit(database);
    } finally {
      await database.close();
    }
    await launch();
  };

  try {
    await launch();
  } catch (error) {
    await close();
    throw error;
  }
  return { base, smtp, withDatabase, log, close };
}
