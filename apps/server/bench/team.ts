import autocannon from 'autocannon';
import {
  organizationMemberships,
  organizations,
  users,
  workspaceMemberships,
  workspaces,
} from '../src/db/schema/index.js';
import { createToken } from '../src/domains/identity/tokens/service.js';
import { registerBenchUser, startBenchServer } from './server.js';

const MEMBERS = 50;
const WORKSPACES = 5;

/**
 * The Team page's reads for a full default-plan organization (50 members in 5 workspaces):
 * the member list, the organization's workspaces with their members, and the scope picker.
 */
export async function benchTeam(seconds: number): Promise<void> {
  const bench = await startBenchServer();
  const { server } = bench;
  const { db } = server.deps;
  const admin = await registerBenchUser(server, 'teamadmin');
  const [org] = await db.insert(organizations).values({ name: 'Bench Team' }).returning();
  const created = await db
    .insert(workspaces)
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
      { organizationId: org!.id, userId: admin.id, role: 'admin' as const },
      ...people.map((p) => ({ organizationId: org!.id, userId: p.id })),
    ]);
  await db.insert(workspaceMemberships).values(
    [admin, ...people].map((p, i) => ({
      workspaceId: created[i % WORKSPACES]!.id,
      userId: p.id,
      isAdmin: i === 0,
    })),
  );
  const { token } = await createToken(db, admin, { label: 'bench' });
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
      await autocannon({ url: `${bench.base}${url}`, headers, connections: 10, duration: 1 });
      const result = await autocannon({
        url: `${bench.base}${url}`,
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
    await bench.close();
  }
}
