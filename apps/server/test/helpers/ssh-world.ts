import { afterAll, beforeAll, expect } from 'vitest';
import { type ClusterTestContext, freePort, startClusterServer } from './clusters.js';
import { openTestDatabase } from './database.js';
import { createUser } from './factories.js';
import { RIG_LOCK_WAIT_MS, type SshRig, startSshRig } from './ssh-hosts.js';

/** A test file's SSH world: the rig's hosts, a listening cluster server, a user and their workspace. */
export interface SshWorld extends ClusterTestContext {
  rig: SshRig;
  /** Where `restartable` asked: the server's database and port, for the next server of a restart. */
  restart?: { database: Awaited<ReturnType<typeof openTestDatabase>>; port: number };
}

/**
 * The SSH server files' set-up, once: `hosts` sshd hosts of the rig (helpers/ssh-hosts.ts), a
 * cluster server (`env`), a user, and the hosts `register` gives registered in the user's workspace
 * through the API; closed after the file (the server first, then the rig).
 */
export function useSshWorld(
  options: {
    hosts?: number;
    env?: Record<string, string>;
    register?: (rig: SshRig) => Record<string, unknown>[];
    /** A database and port of the file's own, which a restarted server takes over (`world.restart`). */
    restartable?: boolean;
  } = {},
): SshWorld {
  const world = {} as SshWorld;
  beforeAll(async () => {
    world.rig = await startSshRig(options.hosts ?? 1);
    if (options.restartable) world.restart = { database: await openTestDatabase(), port: await freePort() };
    world.ts = await startClusterServer(options.env ?? {}, world.restart ?? {});
    world.user = await createUser(world.ts);
    world.api = world.ts.api.as(world.user.key);
    world.slug = (await world.api.get('/api/v2/user/me')).body.default_account.slug;
    for (const body of options.register?.(world.rig) ?? []) {
      const added = await world.api.post(`/api/v2/ssh-hosts/${world.slug}`, body);
      expect(added.status, added.text).toBe(201);
    }
  }, RIG_LOCK_WAIT_MS + 120_000);
  afterAll(async () => {
    try {
      await world.ts?.close();
      await world.restart?.database.close();
    } finally {
      await world.rig?.close();
    }
  }, 120_000);
  return world;
}
