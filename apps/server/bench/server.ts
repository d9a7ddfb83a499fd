import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { loadConfig } from '../src/config.js';
import { type User, users } from '../src/db/schema/index.js';
import { register } from '../src/domains/identity/auth/service.js';
import { createServer, LISTEN_BACKLOG, type Server } from '../src/server.js';

export const BENCH_PASSWORD = 'Steady-throughput-77';

/**
 * The real server on a throwaway data directory, listening on a free port (or `port`); its loops
 * run unless `loops` is false.
 */
export async function startBenchServer(
  env: Record<string, string> = {},
  port = 0,
  loops = true,
): Promise<{ server: Server; base: string; dataDir: string; close(): Promise<void> }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cumulus-bench-'));
  const config = loadConfig({
    ...process.env,
    CUMULUS_DATA_DIR: dataDir,
    PORT: String(port),
    CUMULUS_SMTP_URL: '',
    CUMULUS_LOG_LEVEL: 'warn',
    ...env,
  });
  const server = await createServer(config);
  if (loops) server.startLoops();
  await server.app.listen({ port, host: '127.0.0.1', backlog: LISTEN_BACKLOG });
  return {
    server,
    base: `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`,
    dataDir,
    async close() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A verified user registered through the real service. */
export async function registerBenchUser(server: Server, username: string): Promise<User> {
  await register(server.deps, {
    username,
    email: `${username}@example.com`,
    password1: BENCH_PASSWORD,
    password2: BENCH_PASSWORD,
    full_name: username,
    preferred_name: '',
  });
  const [user] = await server.deps.db
    .update(users)
    .set({ emailVerifiedAt: new Date() })
    .where(eq(users.username, username))
    .returning();
  return user!;
}

/** The fields benchmarks read of an answer (a cluster's id and state, user/me's workspace). */
export interface BenchAnswer extends Record<string, unknown> {
  id: number;
  default_account: { slug: string };
  current_state: { state: string; reason: string };
}

/** JSON calls to a bench server with an API token; a call the server refuses stops the benchmark. */
export function benchCaller(base: string, token: string) {
  const headers = { authorization: `ApiToken ${token}`, 'content-type': 'application/json' };
  return async (method: string, path: string, body?: unknown): Promise<BenchAnswer> => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = (await res.json()) as BenchAnswer;
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(answer)}`);
    return answer;
  };
}
