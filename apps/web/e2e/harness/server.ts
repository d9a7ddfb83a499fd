import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { SmtpSink } from '../../../server/test/helpers/smtp';

const here = path.dirname(fileURLToPath(import.meta.url));
const serverDir = path.resolve(here, '../../../server');
const webDist = path.resolve(here, '../../dist');

export interface E2eServer {
  /** http://127.0.0.1:<port>, the origin of the console and the API. */
  base: string;
  smtp: SmtpSink;
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

/**
 * The real server, as `npm start` runs it, serving the BUILT console (apps/web/dist) on a free
 * port, on a fresh embedded database, with mail going to a real SMTP sink.
 */
export async function startE2eServer(): Promise<E2eServer> {
  if (!existsSync(path.join(webDist, 'index.html'))) {
    throw new Error('apps/web/dist is missing: build the console first (npm run build -w apps/web).');
  }
  const smtp = new SmtpSink();
  const smtpUrl = await smtp.start();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cumulus-e2e-'));
  const output: string[] = [];
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      CUMULUS_PUBLIC_URL: base,
      CUMULUS_DATA_DIR: dataDir,
      CUMULUS_SMTP_URL: smtpUrl,
      CUMULUS_WEB_DIST: webDist,
      CUMULUS_LOG_LEVEL: 'warn',
      DATABASE_URL: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString('utf8'));
    if (output.length > 200) output.shift();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const log = () => output.join('');

  const close = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    await smtp.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    await waitForHealth(base, child, log, 90_000);
  } catch (error) {
    await close();
    throw error;
  }
  return { base, smtp, close };
}
