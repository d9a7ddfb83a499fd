import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { eq } from 'drizzle-orm';
import { loadConfig } from '../src/config.js';
import {
  accountMemberships,
  accounts,
  organizationMemberships,
  organizations,
  users,
} from '../src/db/schema/index.js';
import { register } from '../src/modules/auth/service.js';
import { createToken } from '../src/modules/tokens/service.js';
import { createServer } from '../src/server.js';

const MEMBERS = 50;
const WORKSPACES = 5;

/**
 * The Team page's reads for a full default-plan organization (50 members in 5 workspaces):
 * the member list, the organization's workspaces with their members, and the scope picker.
 */
export async function benchTeam(seconds: number): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cumulus-bench-team-'));
  const config = loadConfig({ ...process.env, CUMULUS_DATA_DIR: dataDir, PORT: '0', CUMULUS_SMTP_URL: '' });
  const server = await createServer(config);
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const { db } = server.deps;
  const password = 'Steady-throughput-77';
  await register(server.deps, {
    username: 'teamadmin',
    email: 'teamadmin@example.com',
    password1: password,
    password2: password,
    full_name: 'Team Admin',
    preferred_name: '',
  });
  const [admin] = await db.select().from(users).where(eq(users.username, 'teamadmin'));
  const [org] = await db.insert(organizations).values({ name: 'Bench Team' }).returning();
  const workspaces = await db
    .insert(accounts)
    .values(
      Array.from({ length: WORKSPACES }, (_, i) => ({
        name: `bench-ws-${i}`,
        slug: `bench-ws-${i}`,
        organizationId: org!.id,
      })),
    )
    .returning();
  const people = await db
    .insert(users)
    .values(
      Array.from({ length: MEMBERS - 1 }, (_, i) => ({
        username: `member${i}`,
        email: `member${i}@example.com`,
      })),
    )
    .returning();
  await db
    .insert(organizationMemberships)
    .values([
      { organizationId: org!.id, userId: admin!.id, role: 'admin' as const },
      ...people.map((p) => ({ organizationId: org!.id, userId: p.id })),
    ]);
  await db.insert(accountMemberships).values(
    [admin!, ...people].map((p, i) => ({
      accountId: workspaces[i % WORKSPACES]!.id,
      userId: p.id,
      isAdmin: i === 0,
    })),
  );
  const { token } = await createToken(db, admin!, { label: 'bench' });
  const port = (server.app.server.address() as AddressInfo).port;
  const headers = { authorization: `ApiToken ${token}` };
  const calls = {
    members: `/api/v2/users/organizations/members/${org!.id}?limit=50`,
    workspaces: `/api/v2/users/workspaces/?organization_id=${org!.id}`,
    'valid-scopes': '/api/v2/users/user/valid-scopes',
  };
  try {
    const database = server.database.kind === 'pglite' ? 'embedded PGlite' : 'PostgreSQL';
    console.log(
      `\nTeam page reads, ${MEMBERS} members in ${WORKSPACES} workspaces (${database}), ${seconds} s each, 10 connections`,
    );
    for (const [name, url] of Object.entries(calls)) {
      await autocannon({ url: `http://127.0.0.1:${port}${url}`, headers, connections: 10, duration: 1 });
      const result = await autocannon({
        url: `http://127.0.0.1:${port}${url}`,
        headers,
        connections: 10,
        duration: seconds,
      });
      if (result.non2xx > 0 || result.errors > 0)
        throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
      console.log(
        `  ${name.padEnd(13)} ${result.requests.average.toFixed(0).padStart(6)} req/s   p99 ${result.latency.p99} ms`,
      );
    }
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
