import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile, readlink, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findInstanceProcesses } from '../src/compute/local-processes.js';
import { instances } from '../src/db/schema/index.js';
import type { Api } from './helpers/api.js';
import {
  createReadyCluster,
  daskPid,
  runAgainst,
  startClusterServer,
  waitFor,
  waitForClusterState,
} from './helpers/clusters.js';
import { createUser } from './helpers/factories.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * A tenant's code never runs as the server, never reads its data or environment, nor another
 * tenant's processes and files: on a server run as root, every local cluster (and build) runs as a
 * uid of its own. The hostile user here is a second, unrelated sign-up with a cluster of their own.
 */
let ts: TestServer & { url: string };
let alice: { api: Api; slug: string };
let mallory: { api: Api; slug: string };

/** What a hostile cluster tries: each target answers allowed, denied or missing. */
const PROBE = `
import os, json, subprocess
def probe(targets):
    out = {}
    for name, (kind, where) in targets.items():
        try:
            if kind == "list":
                os.listdir(where)
            elif kind == "read":
                open(where, "rb").read(1)
            elif kind == "signal":
                os.kill(int(where), 0)
            out[name] = "allowed"
        except PermissionError:
            out[name] = "denied"
        except (FileNotFoundError, ProcessLookupError):
            out[name] = "missing"
    out["uid"] = os.getuid()
    out["cwd"] = os.getcwd()
    return out
`;

async function as(ts: TestServer) {
  const user = await createUser(ts);
  const api = ts.api.as(user.key);
  const slug = (await api.get('/api/v2/user/me')).body.default_account.slug as string;
  return { api, slug };
}

beforeAll(async () => {
  ts = await startClusterServer();
  // What a server's data directory holds before any cluster runs: its secret, the embedded
  // database, the log the operator's service manager writes beside them.
  writeFileSync(path.join(ts.dataDir, 'secret.key'), 'the-server-secret\n', { mode: 0o600 });
  mkdirSync(path.join(ts.dataDir, 'pgdata'), { recursive: true });
  writeFileSync(path.join(ts.dataDir, 'pgdata', 'PG_VERSION'), '17\n');
  writeFileSync(path.join(ts.dataDir, 'server.log'), 'a line of the server log\n');
  alice = await as(ts);
  mallory = await as(ts);
}, 120_000);

afterAll(async () => {
  await ts?.close();
});

/**
 * A hostile cluster's scheduler and worker try to read the server's files and environment and
 * another cluster's; each must be denied, and each cluster run as a uid of its own. Answers the
 * victim's scheduler row.
 */
async function probeIsolation(
  ts: TestServer & { url: string },
  alice: { api: Api; slug: string },
  mallory: { api: Api; slug: string },
) {
  const victim = await createReadyCluster(alice.api, alice.slug, { name: 'victim', workers: 0 });
  const hostile = await createReadyCluster(mallory.api, mallory.slug, { name: 'hostile', workers: 1 });
  const [victimScheduler] = await ts.server.deps.db
    .select()
    .from(instances)
    .where(eq(instances.clusterId, victim.id));
  const victimPid = await daskPid(victimScheduler!, 'dask_scheduler');
  const victimDir = path.join(ts.dataDir, 'instances', victimScheduler!.backendId);
  const targets = {
    dataDir: ['list', ts.dataDir],
    secretKey: ['read', path.join(ts.dataDir, 'secret.key')],
    serverLog: ['read', path.join(ts.dataDir, 'server.log')],
    database: ['list', path.join(ts.dataDir, 'pgdata')],
    databaseFile: ['read', path.join(ts.dataDir, 'pgdata', 'PG_VERSION')],
    uploads: ['list', path.join(ts.dataDir, 'packages')],
    // Where warm processes wait (compute/local-warm.ts), on a server that keeps them.
    ...(existsSync(path.join(ts.dataDir, 'warm')) && { warmPool: ['list', path.join(ts.dataDir, 'warm')] }),
    serverEnviron: ['read', `/proc/${process.pid}/environ`],
    otherEnviron: ['read', `/proc/${victimPid}/environ`],
    otherWorkDir: ['list', victimDir],
    otherAgentLog: ['read', path.join(victimDir, 'agent.log')],
    otherProcess: ['signal', String(victimPid)],
    ownWorkDir: ['list', '.'],
  };
  const seen = await runAgainst<{
    scheduler: Record<string, string | number>;
    worker: Record<string, string | number>;
  }>(
    hostile,
    `${PROBE}
targets = json.loads(${JSON.stringify(JSON.stringify(targets))})
with Client(address, security=sec, timeout=60) as client:
  on_scheduler = client.run_on_scheduler(probe, targets)
  on_worker = client.submit(probe, targets, pure=False).result()
  print(json.dumps({"scheduler": on_scheduler, "worker": on_worker}))
`,
  );
  for (const where of [seen.scheduler, seen.worker]) {
    const { uid, cwd, ownWorkDir, ...attempts } = where;
    expect(attempts).toEqual(Object.fromEntries(Object.keys(attempts).map((k) => [k, 'denied'])));
    expect(ownWorkDir).toBe('allowed');
    expect(uid).not.toBe(0);
    expect(String(cwd).startsWith(path.join(ts.dataDir, 'instances'))).toBe(true);
  }
  // Each cluster its own uid: the victim's scheduler runs as another one than the hostile's.
  const victimUid = (await stat(`/proc/${victimPid}`)).uid;
  expect(victimUid).not.toBe(0);
  expect(victimUid).not.toBe(seen.scheduler.uid);
  expect(seen.worker.uid).toBe(seen.scheduler.uid);
  return victimScheduler!;
}

describe('a cluster on the local backend, run by another user', () => {
  it("reads nothing of the server's nor of another cluster's, and runs as a uid of its own", async () => {
    await probeIsolation(ts, alice, mallory);
  }, 240_000);

  it('leaves nothing running once stopped, not even a process that left its group and environment', async () => {
    const cluster = await createReadyCluster(mallory.api, mallory.slug, { name: 'daemon', workers: 0 });
    const { pid } = await runAgainst<{ pid: number }>(
      cluster,
      `
import subprocess
def start():
    # A daemon: its own session, and none of the instance's environment.
    return subprocess.Popen(["sleep", "1000"], start_new_session=True, env={}).pid
with Client(address, security=sec, timeout=60) as client:
    print(json.dumps({"pid": client.run_on_scheduler(start)}))
`,
    );
    expect(existsSync(`/proc/${pid}`)).toBe(true);
    const stopped = await mallory.api.delete(`/api/v2/clusters/account/${mallory.slug}/id/${cluster.id}`);
    expect(stopped.status).toBe(200);
    await waitForClusterState(mallory.api, mallory.slug, cluster.id, 'stopped');
    await waitFor('the daemon to be ended', async () => {
      const status = await readFile(`/proc/${pid}/status`, 'latin1').catch(() => '');
      return !status || /^State:\s+Z/m.test(status);
    });
  }, 180_000);
});

describe('a cluster started in warm processes (CUMULUS_WARM_PROCESSES)', () => {
  let warm: TestServer & { url: string };
  beforeAll(async () => {
    warm = await startClusterServer({ CUMULUS_WARM_PROCESSES: '3' });
    writeFileSync(path.join(warm.dataDir, 'secret.key'), 'the-server-secret\n', { mode: 0o600 });
    mkdirSync(path.join(warm.dataDir, 'pgdata'), { recursive: true });
    writeFileSync(path.join(warm.dataDir, 'pgdata', 'PG_VERSION'), '17\n');
    writeFileSync(path.join(warm.dataDir, 'server.log'), 'a line of the server log\n');
  }, 120_000);
  afterAll(async () => {
    await warm?.close();
  });

  it("holds the same: the processes that waited as the server's user read nothing of it once a cluster's", async () => {
    const pool = path.join(warm.dataDir, 'warm');
    const waiting = async () => {
      const found: number[] = [];
      for (const p of await findInstanceProcesses())
        if ((await readlink(`/proc/${p.pid}/cwd`).catch(() => '')) === pool) found.push(p.pid);
      return found;
    };
    // Ready, not only started: one still importing Dask is not taken (the instance starts anew).
    await waitFor('3 warm processes', async () => warm.server.warm.ready === 3, 60_000);
    expect((await waiting()).length).toBe(3);
    const before = new Set(await waiting());
    const victim = await probeIsolation(warm, await as(warm), await as(warm));
    // The instances are processes that waited: the victim's scheduler agent is one of them.
    expect(before.has((victim.backendData as { pid: number }).pid)).toBe(true);
    expect(typeof victim.backendData?.warmId).toBe('string');
  }, 240_000);
});

describe('a software build', () => {
  it("runs a package's build code as a uid of its own, which reads nothing of the server's", async () => {
    // A package whose own build backend (PEP 517, in its tree: pip needs nothing else) reports
    // what it could read, then fails the build with that report as pip's error.
    const pkg = mkdtempSync(path.join(tmpdir(), 'cumulus-hostile-package-'));
    chmodSync(pkg, 0o755);
    writeFileSync(
      path.join(pkg, 'pyproject.toml'),
      '[build-system]\nrequires = []\nbuild-backend = "hostile_backend"\nbackend-path = ["."]\n',
    );
    writeFileSync(
      path.join(pkg, 'hostile_backend.py'),
      `import os
def attempt(where):
    try:
        open(where, "rb").read(1)
        return "allowed"
    except PermissionError:
        return "denied"
def report():
    seen = {
        "secretKey": attempt(${JSON.stringify(path.join(ts.dataDir, 'secret.key'))}),
        "serverEnviron": attempt("/proc/${process.pid}/environ"),
        "uid": os.getuid(),
    }
    raise RuntimeError("HOSTILE-REPORT " + " ".join(f"{k}={v}" for k, v in seen.items()))
def get_requires_for_build_wheel(config_settings=None):
    report()
def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    report()
`,
    );
    for (const file of ['pyproject.toml', 'hostile_backend.py']) chmodSync(path.join(pkg, file), 0o644);
    try {
      const base = `/api/v2/software-environment/account/${mallory.slug}`;
      const created = await mallory.api.post(base, { name: 'hostile-build', raw_pip: [`file://${pkg}`] });
      expect(created.status).toBe(201);
      const buildId = created.body.latest_spec.latest_build.id as number;
      await waitFor(
        'the build to end',
        async () => (await mallory.api.get(`${base}/build/${buildId}`)).body.state === 'error',
        180_000,
      );
      const log = (
        await mallory.api.get(`${base}/build/logs/${buildId}`, { query: { limit: 1000 } })
      ).body.events
        .map((e: { message: string }) => e.message)
        .join('\n');
      const report = /HOSTILE-REPORT (secretKey=\w+ serverEnviron=\w+ uid=\d+)/.exec(log)?.[1];
      expect(report, log).toBeDefined();
      expect(report).toContain('secretKey=denied');
      expect(report).toContain('serverEnviron=denied');
      expect(report).not.toContain('uid=0');
    } finally {
      rmSync(pkg, { recursive: true, force: true });
    }
  }, 240_000);
});

describe('a server whose local backend runs everything as its own user', () => {
  let single: TestServer;
  beforeAll(async () => {
    single = await startTestServer({ CUMULUS_LOCAL_ISOLATION: 'operator' });
  }, 120_000);
  afterAll(async () => {
    await single?.close();
  });

  it('starts clusters and builds for its operator alone, and says why to anyone else', async () => {
    const operator = await as(single);
    const other = await as(single);
    const create = (who: { api: Api; slug: string }, name: string) =>
      who.api.post(`/api/v2/clusters/account/${who.slug}/`, { name, workers: 0 });
    // The first account of a server without staff is its operator's (a laptop's one user).
    expect((await create(operator, 'mine')).status).toBe(201);
    const refused = await create(other, 'theirs');
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('OPERATOR_ONLY');
    expect(refused.body.detail).toBe(
      "Only this server's operator can start clusters here: it runs them as its own user (CUMULUS_LOCAL_ISOLATION is operator). " +
        'An operator can run Cumulus as root so that each cluster and build runs as a user of its own (see /docs/operations#who-runs-what).',
    );
    const build = await other.api.post(`/api/v2/software-environment/account/${other.slug}`, {
      name: 'theirs',
      raw_pip: [],
    });
    expect(build.status).toBe(403);
    expect(build.body.detail).toContain("Only this server's operator can start software environments here");
    // Once there is staff, staff are the operators.
    const staff = await createUser(single, { staff: true });
    const staffApi = single.api.as(staff.key);
    const staffSlug = (await staffApi.get('/api/v2/user/me')).body.default_account.slug as string;
    expect((await create({ api: staffApi, slug: staffSlug }, 'staffs')).status).toBe(201);
    expect((await create(operator, 'mine-again')).status).toBe(403);
  }, 120_000);
});
