import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gpuDevicesFor } from '../src/compute/ssh/placement.js';
import type { SshPlacement } from '../src/compute/ssh/ssh-backend.js';
import { sshHosts } from '../src/db/schema/index.js';
import { sshHostsPort } from '../src/domains/cloud/ssh-hosts/service.js';
import { createUser } from './helpers/factories.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * Placement on SSH hosts is read-then-write: the host's placements are read, a host and its free
 * GPU devices chosen, the placement recorded. One server does one at a time; servers sharing a
 * database (replicas) could each read the same free devices and hand them out twice. The
 * registry's placeOnOneOf locks the hosts' rows for the read and the write: placements made at
 * once, each on its own connection (PostgreSQL's pool), still get devices of their own. (The
 * embedded database has one connection, which serializes them anyway: CI's PostgreSQL pass is
 * where this fails without the lock, every device handed out twice or more.)
 */
let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(async () => ts?.close());

describe('placements made at once on one host', () => {
  it('give each instance GPU devices no other holds', async () => {
    const { db, cloudSecrets } = ts.server.deps;
    const user = await createUser(ts);
    const me = await ts.api.as(user.key).get('/api/v2/user/me');
    const [host] = await db
      .insert(sshHosts)
      .values({
        workspaceId: me.body.default_account.id,
        name: 'gpu-box',
        address: '127.0.0.2',
        user: 'dask',
        hostKey: 'ssh-ed25519 AAAA',
        keyBox: 'unused',
        cores: 64,
        memoryMib: 65_536,
        gpus: 8,
      })
      .returning();
    // Two servers' registries over one database.
    const replicas = [sshHostsPort(db, cloudSecrets), sshHostsPort(db, cloudSecrets)];
    const placeOne = (i: number) =>
      replicas[i % 2]!.placeOnOneOf(
        [host!.id],
        (placed): SshPlacement => ({
          backendId: `guard-${i}`,
          hostId: host!.id,
          clusterId: 1,
          cores: 1,
          memoryMib: 256,
          gpus: 1,
          gpuDevices: gpuDevicesFor(
            8,
            placed.flatMap((p) => p.gpuDevices),
            1,
          ),
        }),
      );
    const placements = await Promise.all(Array.from({ length: 8 }, (_, i) => placeOne(i)));
    expect(placements.flatMap((p) => p.gpuDevices).sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    // The ninth finds none free.
    await expect(placeOne(8)).rejects.toThrow();
  });
});
