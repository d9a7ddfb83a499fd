import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { login } from '../src/modules/auth/service.js';
import { createToken } from '../src/modules/tokens/service.js';
import { BENCH_PASSWORD, registerBenchUser, startBenchServer } from './server.js';

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
  const bench = await startBenchServer();
  const { server } = bench;
  const { db } = server.deps;
  const user = await registerBenchUser(server, 'bench');
  await login(db, { username: 'bench', password: BENCH_PASSWORD, ip: '127.0.0.1' });
  const { token } = await createToken(db, user, { label: 'bench' });

  const bare = Fastify();
  bare.get('/bare', async () => ({ ok: true }));
  await bare.listen({ port: 0, host: '127.0.0.1' });

  const barePort = (bare.server.address() as AddressInfo).port;
  try {
    // Warm both up so JIT and caches do not count against either.
    await measure(`http://127.0.0.1:${barePort}/bare`, {}, 1);
    await measure(`${bench.base}/api/v2/user/me`, { authorization: `ApiToken ${token}` }, 1);
    const baseline = await measure(`http://127.0.0.1:${barePort}/bare`, {}, seconds);
    const me = await measure(`${bench.base}/api/v2/user/me`, { authorization: `ApiToken ${token}` }, seconds);
    const database = server.database.kind === 'pglite' ? 'embedded PGlite' : 'PostgreSQL';
    console.log(
      `\nGET /api/v2/user/me (ApiToken, ${database}) vs a bare Fastify route, ${seconds} s each, 10 connections`,
    );
    console.log(`  bare route    ${baseline.rps.toFixed(0).padStart(7)} req/s   p99 ${baseline.p99} ms`);
    console.log(`  user/me       ${me.rps.toFixed(0).padStart(7)} req/s   p99 ${me.p99} ms`);
    console.log(`  ratio         ${(me.rps / baseline.rps).toFixed(3)} of the bare route's throughput`);
  } finally {
    await bare.close();
    await bench.close();
  }
}
