import { execFile, execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { promisify } from 'node:util';
import { eq, gt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gceCapabilities } from '../src/compute/gcp/gce-backend.js';
import { instances, workspaces } from '../src/db/schema/index.js';
import { buildForCluster } from '../src/domains/software/for-clusters.js';
import {
  freePort,
  runAgainst,
  startClusterServer,
  useClusterServer,
  waitFor,
  waitForClusterState,
} from './helpers/clusters.js';
import {
  buildOfContainer,
  startTestRegistries,
  type TestRegistries,
  testImages,
  whereInImage,
} from './helpers/containers.js';
import { openTestDatabase } from './helpers/database.js';
import { createUser } from './helpers/factories.js';

/**
 * Software environments from container images, on the local backend with podman: the image the
 * tests build from Debian's packages (scripts/container-images.sh: bookworm with python3 and Dask,
 * and a copy without Dask) is the environment; clusters on it run their agent and Dask inside it,
 * as the cluster's own uid.
 */
const BASE = 'localhost/cumulus-test/dask:bookworm';
const NO_DASK = 'localhost/cumulus-test/nodask:bookworm';
const ENTRYPOINT = 'localhost/cumulus-test/entrypoint:bookworm';
const run = promisify(execFile);

const c = useClusterServer();
const base = () => `/api/v2/software-environment/account/${c.slug}`;

beforeAll(async () => {
  await testImages();
}, 900_000);

const buildOf = (name: string, container: string, useEntrypoint = true) =>
  buildOfContainer(c.api, c.slug, name, container, useEntrypoint);

const containersNamed = (prefix: string) =>
  execFileSync('podman', ['ps', '--all', '--format', '{{.Names}}'], { encoding: 'utf8' })
    .split('\n')
    .filter((n) => n.startsWith(prefix));

describe('a container environment', () => {
  it('is checked at create (its Dask version recorded), and a cluster on it computes inside the image', async () => {
    const build = await buildOf('in-a-container', BASE);
    expect(build.state).toBe('built');
    const lockfile = await c.api.get(`${base()}/build/${build.id}/lockfile`);
    expect(lockfile.text).toMatch(new RegExp(`^# cumulus lockfile: container ${BASE} \\(`));
    expect(lockfile.text).toMatch(/\ndistributed==2022\.12\.1/);

    const created = await c.api.post(`/api/v2/clusters/account/${c.slug}/`, {
      name: 'containered',
      workers: 1,
      env_name: 'in-a-container',
      // A client of the image's Dask release (another patch) is welcome.
      local_versions: { python: '3.11.2', distributed: '2022.12.0' },
    });
    expect(created.status).toBe(201);
    const details = await waitForClusterState(c.api, c.slug, created.body.id, 'ready', 300_000);
    const seen = await whereInImage(details);
    // Both run in the image (its marker file exists only there), as an unprivileged uid.
    for (const where of [seen.scheduler, seen.worker]) {
      expect(where.image).toBe(BASE);
      expect(where.uid).not.toBe(0);
    }
    expect(seen.sum).toBe(500500);
    const running = containersNamed('cumulus-');
    expect(running.length).toBeGreaterThanOrEqual(2);

    const stopped = await c.api.delete(`/api/v2/clusters/account/${c.slug}/id/${created.body.id}`);
    expect(stopped.status).toBe(200);
    await waitForClusterState(c.api, c.slug, created.body.id, 'stopped', 120_000);
    // Nothing of the cluster's containers is left behind.
    await waitFor('its containers to be gone', async () =>
      running.every((name) => !containersNamed(name).includes(name)),
    );
  }, 600_000);

  it("refuses a cluster whose client's distributed is another release than the image's, saying which", async () => {
    const build = await buildOf('for-old-clients', BASE);
    expect(build.state).toBe('built');
    const clusters = `/api/v2/clusters/account/${c.slug}/`;
    const refused = await c.api.post(clusters, {
      name: 'newer-client',
      workers: 0,
      env_name: 'for-old-clients',
      local_versions: { distributed: '2024.1.0' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.env_name[0]).toBe(
      `Your distributed is 2024.1.0, but the image ${BASE} has distributed 2022.12.1+ds.1: the client and the cluster ` +
        'need the same Dask release (2022.12.*). Use an image with distributed 2024.1.*, or a client with distributed 2022.12.*.',
    );
    const listed = await c.api.get(`/api/v2/clusters/account/${c.slug}/`);
    expect(JSON.stringify(listed.body)).not.toContain('newer-client');
  }, 300_000);

  it('is refused by name where the workspace runs its clusters on a backend without containers (Compute Engine, this server without podman)', async () => {
    const build = await buildOf('for-compute-engine', BASE);
    expect(build.state).toBe('built');
    const db = c.ts.server.deps.db;
    const [workspace] = await db
      .select({ id: workspaces.id })
      .from(workspaces)
      .where(eq(workspaces.slug, c.slug));
    // The create check of a cluster on vm_gcp, as it declares itself.
    const gcp = { type: 'vm_gcp', capabilities: gceCapabilities(false) };
    await expect(
      buildForCluster(db, workspace!.id, gcp, { name: 'for-compute-engine' }),
    ).rejects.toMatchObject({
      statusCode: 400,
      errors: {
        env_name: [
          `Software environment for-compute-engine is the container image ${BASE}, and clusters on backend vm_gcp cannot run container images (containers are off on this server: CUMULUS_PODMAN=off).`,
        ],
      },
    });
  }, 300_000);

  it('of an image without Dask is refused at create, with the reason', async () => {
    const build = await buildOf('no-dask', NO_DASK);
    expect(build.state).toBe('error');
    expect(build.reason).toContain(`${NO_DASK} has no Dask: its python3 (3.11.`);
    expect(build.reason).toContain('cannot import distributed');
  }, 300_000);

  it("runs through the image's entrypoint unless told to ignore it", async () => {
    const through = await buildOf('through-entrypoint', ENTRYPOINT);
    expect(through.state).toBe('error');
    expect(through.reason).toContain(`${ENTRYPOINT} cannot run the instance's Python`);
    expect(through.reason).toContain('(through its entrypoint)');
    expect(through.reason).toContain('this entrypoint runs nothing');
    const ignoring = await buildOf('ignoring-entrypoint', ENTRYPOINT, false);
    expect(ignoring.state).toBe('built');
  }, 300_000);

  it('of a local image this machine does not have is refused, saying so', async () => {
    const build = await buildOf('not-here', 'localhost/cumulus-test/absent:1');
    expect(build.state).toBe('error');
    expect(build.reason).toContain("localhost/cumulus-test/absent:1 is not among this machine's images");
  }, 300_000);
});

describe('an image from a registry', () => {
  let registry: TestRegistries;
  const IMAGE = 'cumulus-test/dask:bookworm';

  beforeAll(async () => {
    registry = await startTestRegistries();
    // Plain-HTTP registries are allowed where podman's registries.conf says so: the server's podman
    // (a child of this process) reads this one.
    process.env.CONTAINERS_REGISTRIES_CONF = registry.registries_conf;
  }, 900_000);

  afterAll(async () => {
    delete process.env.CONTAINERS_REGISTRIES_CONF;
    for (const pid of registry?.pids ?? []) process.kill(pid, 'SIGTERM');
    // The pulled names (their ports differ at each run); the image itself stays, as localhost/.
    for (const host of [registry?.public, registry?.private])
      if (host) await run('podman', ['rmi', '--ignore', `${host}/${IMAGE}`]).catch(() => undefined);
    if (registry) rmSync(registry.dir, { recursive: true, force: true });
  });

  it('public: pulled without credentials and checked', async () => {
    const image = `${registry.public}/${IMAGE}`;
    const build = await buildOf('from-public', image);
    expect(build.reason ?? '').toBe('');
    expect(build.state).toBe('built');
    const lockfile = await c.api.get(`${base()}/build/${build.id}/lockfile`);
    expect(lockfile.text).toMatch(new RegExp(`^# cumulus lockfile: container ${image} \\(`));
    expect(lockfile.text).toMatch(/\ndistributed==2022\.12\.1/);
  }, 300_000);

  it("private: refused without credentials, refused with wrong ones, pulled with the workspace's", async () => {
    const image = `${registry.private}/${IMAGE}`;
    const without = await buildOf('from-private', image);
    expect(without.state).toBe('error');
    expect(without.reason).toContain(
      `${image} is private: set the workspace's registry credentials (Setup → Docker registry) to pull it.`,
    );

    const docker = `/api/v2/setup/account/${c.slug}/docker`;
    const set = await c.api.patch(docker, {
      registry_type: 'other',
      registry_uri: `http://${registry.private}`,
      username: registry.username,
      password: 'not-the-password',
    });
    expect(set.status).toBe(200);
    expect(set.body).not.toHaveProperty('password');
    const wrong = await buildOf('from-private', image);
    expect(wrong.state).toBe('error');
    expect(wrong.reason).toContain(`The registry refused the workspace's credentials for ${image}`);
    expect(wrong.reason).not.toContain('not-the-password');

    expect((await c.api.patch(docker, { password: registry.password })).body.has_password).toBe(true);
    const pulled = await buildOf('from-private', image);
    expect(pulled.reason ?? '').toBe('');
    expect(pulled.state).toBe('built');
    const log = await c.api.get(`${base()}/build/logs/${pulled.id}`);
    expect(JSON.stringify(log.body)).toContain(`with the workspace's credentials for ${registry.private}`);
    expect(JSON.stringify(log.body)).not.toContain(registry.password);
  }, 300_000);
});

describe('a cluster in containers', () => {
  it('is adopted by a server restarted on the same database: the same containers, still computing, then stopped', async () => {
    const database = await openTestDatabase();
    const port = await freePort();
    const first = await startClusterServer({}, { database, port });
    let second: Awaited<ReturnType<typeof startClusterServer>> | undefined;
    try {
      const user = await createUser(first);
      const api = first.api.as(user.key);
      const slug = (await api.get('/api/v2/user/me')).body.default_account.slug;
      const env = await api.post(`/api/v2/software-environment/account/${slug}`, {
        name: 'kept',
        container: BASE,
      });
      expect(env.status).toBe(201);
      const created = await api.post(`/api/v2/clusters/account/${slug}/`, {
        name: 'kept-in-image',
        workers: 1,
        env_name: 'kept',
      });
      await waitForClusterState(api, slug, created.body.id, 'ready', 300_000);
      const before = containersNamed('cumulus-').sort();
      expect(before).toHaveLength(2);

      // The first server goes away without stopping anything, as in a crash or a rolling restart.
      await first.server.close();
      const restartedAt = new Date();
      second = await startClusterServer({}, { database, port });
      await waitFor('both instances heartbeating to the new server', async () => {
        const fresh = await database.db
          .select()
          .from(instances)
          .where(gt(instances.lastHeartbeat, restartedAt));
        return fresh.length === 2;
      });
      const api2 = second.api.as(user.key);
      const details = await waitForClusterState(api2, slug, created.body.id, 'ready');
      expect(containersNamed('cumulus-').sort()).toEqual(before);
      const seen = await runAgainst<{ sum: number; workers: number }>(
        details,
        `
with Client(address, security=sec, timeout=60) as client:
    print(json.dumps({"sum": client.submit(sum, range(11)).result(), "workers": len(client.scheduler_info()["workers"])}))
`,
      );
      expect(seen).toEqual({ sum: 55, workers: 1 });

      await api2.delete(`/api/v2/clusters/account/${slug}/id/${created.body.id}`);
      await waitForClusterState(api2, slug, created.body.id, 'stopped', 120_000);
      await waitFor('its containers to be gone', async () => containersNamed('cumulus-').length === 0);
    } finally {
      await second?.close();
      await first.smtp.stop();
      rmSync(first.dataDir, { recursive: true, force: true });
      await database.close();
    }
  }, 600_000);
});
