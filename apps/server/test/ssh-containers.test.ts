import { execFile } from 'node:child_process';
import { chownSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createReadyCluster,
  restartAndAwaitInstances,
  waitFor,
  waitForClusterState,
} from './helpers/clusters.js';
import {
  buildOfContainer,
  startTestRegistries,
  type TestRegistries,
  whereInImage,
} from './helpers/containers.js';
import { rigHostBody } from './helpers/ssh-hosts.js';
import { useSshWorld } from './helpers/ssh-world.js';

/**
 * Container environments on the `ssh` backend: the image (the tests' Debian image with Dask,
 * scripts/container-images.sh, served by a registry behind a login, scripts/container-registry.sh)
 * is checked on a registered host over SSH with the workspace's registry login, and a cluster on
 * it runs its agent and Dask inside the image on the host: rootless podman as the host account,
 * whose processes they are, found and stopped by their backend id like any instance's, and adopted
 * by a server restarted on the same database and address.
 */
const world = useSshWorld({ hosts: 1, register: (rig) => [rigHostBody(rig, 0)], restartable: true });
const run = promisify(execFile);
const IMAGE = 'cumulus-test/dask:bookworm';
let registry: TestRegistries;
/** The rig account's own podman configuration: the test registries are plain HTTP on loopback. */
let containersConf: string;
const timings: Record<string, number[]> = { host_python_ms: [], container_ms: [] };

/** Runs a command as the rig account, with the runtime directory its instances' podman uses. */
async function asAccount(command: string): Promise<string> {
  const { stdout } = await run(
    'runuser',
    ['-u', world.rig.user, '--', 'bash', '-c', `export XDG_RUNTIME_DIR=$HOME/.cumulus/run; ${command}`],
    { cwd: '/tmp' },
  );
  return stdout;
}

const containersOfAccount = async () =>
  (await asAccount('podman ps --all --format "{{.Names}}" 2>/dev/null || true'))
    .split('\n')
    .filter((name) => name.startsWith('cumulus-'));

beforeAll(async () => {
  registry = await startTestRegistries();
  containersConf = path.join(world.rig.home, '.config/containers');
  mkdirSync(containersConf, { recursive: true });
  const conf = path.join(containersConf, 'registries.conf');
  writeFileSync(conf, readFileSync(registry.registries_conf));
  // Overlay storage, as a host's operator sets it (Debian's rootless default, vfs, copies the whole
  // image for each container): an account whose storage began as vfs starts it again, once.
  const storage = path.join(containersConf, 'storage.conf');
  writeFileSync(storage, '[storage]\ndriver = "overlay"\n');
  const { uid, gid } = JSON.parse(
    (
      await run('/usr/bin/python3', [
        '-c',
        `import pwd, json; p = pwd.getpwnam("${world.rig.user}"); print(json.dumps({"uid": p.pw_uid, "gid": p.pw_gid}))`,
      ])
    ).stdout,
  );
  for (const made of [path.join(world.rig.home, '.config'), containersConf, conf, storage])
    chownSync(made, uid, gid);
  if ((await asAccount('podman info --format "{{.Store.GraphDriverName}}" 2>/dev/null')).trim() !== 'overlay')
    await asAccount('podman system reset --force >/dev/null 2>&1');
}, 900_000);

afterAll(async () => {
  for (const pid of registry?.pids ?? []) process.kill(pid, 'SIGTERM');
  if (containersConf) rmSync(containersConf, { recursive: true, force: true });
  if (registry) rmSync(registry.dir, { recursive: true, force: true });
  console.log('ssh cluster start (1 worker, ready):', timings);
});

const base = () => `/api/v2/software-environment/account/${world.slug}`;

const buildOf = (name: string, container: string) => buildOfContainer(world.api, world.slug, name, container);

async function stopped(id: number) {
  const answer = await world.api.delete(`/api/v2/clusters/account/${world.slug}/id/${id}`);
  expect(answer.status).toBe(200);
  await waitForClusterState(world.api, world.slug, id, 'stopped', 120_000);
}

describe('a container environment on SSH hosts', () => {
  it("pulls a private image on the host with the workspace's login, and a cluster on it computes inside the image as the host account", async () => {
    const image = `${registry.private}/${IMAGE}`;
    const without = await buildOf('private-stack', image);
    expect(without.state).toBe('error');
    expect(without.reason).toContain(`${image} is private: set the workspace's registry credentials`);

    const set = await world.api.patch(`/api/v2/setup/account/${world.slug}/docker`, {
      registry_type: 'other',
      registry_uri: `http://${registry.private}`,
      username: registry.username,
      password: registry.password,
    });
    expect(set.status).toBe(200);
    const build = await buildOf('private-stack', image);
    expect(build.reason ?? '').toBe('');
    expect(build).toMatchObject({ state: 'built', backend_type: 'ssh' });
    const log = JSON.stringify((await world.api.get(`${base()}/build/logs/${build.id}`)).body);
    expect(log).toContain('Checking the image on rig-2');
    expect(log).toContain(`with the workspace's credentials for ${registry.private}`);
    expect(log).not.toContain(registry.password);
    const lockfile = await world.api.get(`${base()}/build/${build.id}/lockfile`);
    expect(lockfile.text).toMatch(new RegExp(`^# cumulus lockfile: container ${image} \\(`));
    expect(lockfile.text).toMatch(/\ndistributed==2022\.12\.1/);

    const started = Date.now();
    const details = await createReadyCluster(world.api, world.slug, {
      name: 'contained',
      workers: 1,
      env_name: 'private-stack',
    });
    timings.container_ms!.push(Date.now() - started);
    const seen = await whereInImage(details);
    const accountUid = Number((await run('id', ['-u', world.rig.user])).stdout.trim());
    // In the image (its marker file is there alone), as the host account's own uid.
    for (const where of [seen.scheduler, seen.worker])
      expect(where).toMatchObject({ image: 'localhost/cumulus-test/dask:bookworm', uid: accountUid });
    expect(seen.sum).toBe(500500);
    const running = await containersOfAccount();
    expect(running.length).toBe(2);
    // The registry password went to no script, log or file the instances keep.
    const kept = await run('grep', ['-rl', registry.password, path.join(world.rig.home, '.cumulus')]).catch(
      (err: { code: number }) => err.code,
    );
    expect(kept).toBe(1);

    // A server restarted on the same database and address adopts the same containers.
    world.ts = await restartAndAwaitInstances(world.ts, {}, world.restart!, details.id, 2);
    world.api = world.ts.api.as(world.user.key);
    expect(await containersOfAccount()).toEqual(running);
    expect((await whereInImage(details)).sum).toBe(500500);

    await stopped(details.id);
    // Nothing of its containers is left on the host.
    await waitFor('its containers to be gone', async () => (await containersOfAccount()).length === 0);
  }, 600_000);

  it('starts clusters in the image and on the host Python, timed (printed), leaving no container behind', async () => {
    for (let i = 0; i < 2; i++)
      for (const [key, body] of [
        ['host_python_ms', {}],
        ['container_ms', { env_name: 'private-stack' }],
      ] as const) {
        const started = Date.now();
        const details = await createReadyCluster(world.api, world.slug, {
          name: `timed-${key.split('_')[0]}-${i}`,
          workers: 1,
          ...body,
        });
        timings[key]!.push(Date.now() - started);
        await stopped(details.id);
      }
    expect(timings.container_ms!.length).toBe(3);
    expect(await containersOfAccount()).toEqual([]);
  }, 600_000);
});
