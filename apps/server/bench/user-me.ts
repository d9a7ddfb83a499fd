import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { eq } from 'drizzle-orm';
import Fastify from 'fastify';
import { loadConfig } from '../src/config.js';
import { users } from '../src/db/schema/index.js';
import { login, register } from '../src/modules/auth/service.js';
import { createToken } from '../src/modules/tokens/service.js';
import { createServer } from '../src/server.js';

interface Figures {
  rps: number;
  p99: number;
}

async function measure(url: string, headers: Record<string, string>, seconds: number): Promise<Figures> {
  const result = await autocannon({ url, headers, connections: 10, duration: seconds });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p99: result.latency.p99 };
}

/** GET /api/v2/user/me with an API token on the real database, against a bare Fastify route. */
export async function benchUserMe(seconds: number): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cumulus-bench-'));
  const config = loadConfig({ ...process.env, CUMULUS_DATA_DIR: dataDir, PORT: '0', CUMULUS_SMTP_URL: '' });
  const server = await createServer(config);
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const { db } = server.deps;
  const password = 'Steady-throughput-77';
  await register(server.deps, {
    username: 'bench',
    email: 'bench@example.com',
    password1: password,
    password2: password,
    full_name: 'Bench',
    preferred_name: '',
  });
  await db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.username, 'bench'));
  await login(db, { username: 'bench', password, ip: '127.0.0.1' });
  const [user] = await db.select().from(users).where(eq(users.username, 'bench'));
  const { token } = await createToken(db, user!, { label: 'bench' });

  const bare = Fastify();
  bare.get('/bare', async () => ({ ok: true }));
  await bare.listen({ port: 0, host: '127.0.0.1' });

  const port = (server.app.server.address() as AddressInfo).port;
  const barePort = (bare.server.address() as AddressInfo).port;
  try {
    // Warm both up so JIT and caches do not count against either.
    await measure(`http://127.0.0.1:${barePort}/bare`, {}, 1);
    await measure(`http://127.0.0.1:${port}/api/v2/user/me`, { authorization: `ApiToken ${token}` }, 1);
    const baseline = await measure(`http://127.0.0.1:${barePort}/bare`, {}, seconds);
    const me = await measure(
      `http://127.0.0.1:${port}/api/v2/user/me`,
      { authorization: `ApiToken ${token}` },
      seconds,
    );
    const database = server.database.kind === 'pglite' ? 'embedded PGlite' : 'PostgreSQL';
    console.log(
      `\nGET /api/v2/user/me (ApiToken, ${database}) vs a bare Fastify route, ${seconds} s each, 10 connections`,
    );
    console.log(`  bare route    ${baseline.rps.toFixed(0).padStart(7)} req/s   p99 ${baseline.p99} ms`);
    console.log(`  user/me       ${me.rps.toFixed(0).padStart(7)} req/s   p99 ${me.p99} ms`);
    console.log(`  ratio         ${(me.rps / baseline.rps).toFixed(3)} of the bare route's throughput`);
  } finally {
    await bare.close();
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
