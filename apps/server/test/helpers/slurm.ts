import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { ensureSubordinateIds } from './subordinate-ids.js';
import { freePort, waitFor } from './wait.js';

/**
 * A Slurm cluster for tests: Debian's munged, slurmctld and slurmd (Slurm 22.05, installed by
 * scripts/setup.sh --slurm), started here without systemd, each of this rig's own (its own munge
 * socket and key, its own ports, state and spool under a temporary directory), so that rigs of
 * concurrent runs never meet. One node, `localhost`, with more cores than the machine has
 * (`config_overrides`): jobs are processes of this machine, tracked by `proctrack/linuxproc`.
 * `SLURM_CONF` (set in this process's environment by `startSlurmRig`) is how sbatch, squeue and
 * scancel find it. `close` cancels every job and stops the daemons, and removes the directory.
 */
export interface SlurmRig {
  dir: string;
  /** The slurm.conf the commands need (`SLURM_CONF`). */
  conf: string;
  /** The partition jobs go to. */
  partition: string;
  /** Cores and MiB the node offers. */
  cores: number;
  memoryMib: number;
  /** With a second node: the host's address on the link to its namespace (listen there to be reached from both nodes). */
  hostAddress?: string;
  /**
   * With `rest`: slurmrestd (JWT authentication, `rest_auth/jwt`) at `url`, run as `nobody` (it
   * refuses root, and tokens of root or SlurmUser); `token` is `scontrol token` for `user` (an
   * unprivileged account of this machine, `cumulus-slurm`, made once: jobs run as it, in its home).
   */
  rest?: { url: string; user: string; home: string; token(lifespanSeconds?: number): string };
  /** Runs a Slurm command (`squeue`, `scancel`...) against the rig. */
  run(command: string, args: string[]): string;
  close(): Promise<void>;
}

const DAEMONS = [
  '/usr/sbin/munged',
  '/usr/sbin/slurmctld',
  '/usr/sbin/slurmd',
  '/usr/bin/sbatch',
  '/usr/sbin/slurmrestd',
];

/** Installs Slurm and munge where they are missing (as scripts/setup.sh --slurm does), or fails saying so. */
function ensureSlurm(): void {
  if (DAEMONS.every((d) => existsSync(d))) return;
  try {
    execFileSync('bash', [path.resolve(import.meta.dirname, '../../../../scripts/setup.sh'), '--slurm'], {
      stdio: 'ignore',
      timeout: 300_000,
    });
  } catch {
    // Said below.
  }
  const missing = DAEMONS.filter((d) => !existsSync(d));
  if (missing.length > 0)
    throw new Error(
      `${missing.join(', ')} missing: run scripts/setup.sh --slurm (Debian's slurmctld, slurmd, munge)`,
    );
}

/**
 * A network namespace joined to this one by a veth pair (10.213.N.1 here, 10.213.N.2 there): the
 * second node's "machine". `remove` deletes it (the pair goes with it).
 */
function namespaceLink(): { name: string; host: string; node: string; remove(): void } {
  const tag = Math.random().toString(36).slice(2, 8);
  const n = 1 + Math.floor(Math.random() * 250);
  const name = `cumulus-slurm-${tag}`;
  const [host, node] = [`10.213.${n}.1`, `10.213.${n}.2`];
  const ip = (...args: string[]) => execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const remove = () => {
    try {
      ip('netns', 'del', name);
    } catch {
      // Not made.
    }
  };
  try {
    ip('netns', 'add', name);
    ip('link', 'add', `vh${tag}`, 'type', 'veth', 'peer', 'name', `vn${tag}`, 'netns', name);
    ip('addr', 'add', `${host}/24`, 'dev', `vh${tag}`);
    ip('link', 'set', `vh${tag}`, 'up');
    ip('-n', name, 'addr', 'add', `${node}/24`, 'dev', `vn${tag}`);
    ip('-n', name, 'link', 'set', `vn${tag}`, 'up');
    ip('-n', name, 'link', 'set', 'lo', 'up');
  } catch (err) {
    remove();
    throw err;
  }
  return { name, host, node, remove };
}

/** The account jobs submitted through slurmrestd run as (it refuses tokens of root), and its home. */
const REST_USER = 'cumulus-slurm';
const REST_HOME = `/var/lib/${REST_USER}`;

function ensureRestUser(): void {
  try {
    execFileSync('id', ['-u', REST_USER], { stdio: 'ignore' });
  } catch {
    execFileSync('useradd', ['--create-home', '--home-dir', REST_HOME, '--shell', '/bin/bash', REST_USER], {
      stdio: 'ignore',
    });
  }
  // Rootless podman, for container environments' jobs.
  ensureSubordinateIds(REST_USER);
}

export async function startSlurmRig(
  options: { cores?: number; memoryMib?: number; secondNode?: boolean; rest?: boolean } = {},
): Promise<SlurmRig> {
  ensureSlurm();
  if (options.rest) ensureRestUser();
  const cores = options.cores ?? 6;
  const memoryMib = options.memoryMib ?? 8192;
  // A second slurmd, `node2`, in a network namespace of its own (started with nsenter --net=,
  // which leaves /sys alone where `ip netns exec` remounts it).
  const link = options.secondNode ? namespaceLink() : null;
  const dir = mkdtempSync(path.join(tmpdir(), 'cumulus-slurm-rig-'));
  chmodSync(dir, 0o755);
  // munged checks that only munge may write its key and socket directory.
  const munge = path.join(dir, 'munge');
  mkdirSync(munge, { mode: 0o755 });
  const mungeUid = Number(execFileSync('id', ['-u', 'munge'], { encoding: 'utf8' }).trim());
  const mungeGid = Number(execFileSync('id', ['-g', 'munge'], { encoding: 'utf8' }).trim());
  const key = path.join(munge, 'munge.key');
  writeFileSync(key, execFileSync('head', ['-c', '1024', '/dev/urandom']), { mode: 0o400 });
  chownSync(key, mungeUid, mungeGid);
  chownSync(munge, mungeUid, mungeGid);
  const socket = path.join(munge, 'munge.socket');
  for (const d of ['state', 'spool', 'log']) mkdirSync(path.join(dir, d));
  const [ctldPort, slurmdPort] = [await freePort(), await freePort()];
  // slurmrestd's tokens: signed with a key of the rig's, readable by SlurmUser (root) alone.
  const jwtKey = path.join(dir, 'jwt.key');
  if (options.rest)
    writeFileSync(jwtKey, execFileSync('head', ['-c', '32', '/dev/urandom']), { mode: 0o600 });
  const partition = 'rig';
  const conf = path.join(dir, 'slurm.conf');
  writeFileSync(
    conf,
    [
      'ClusterName=cumulus-rig',
      link ? `SlurmctldHost=localhost(${link.host})` : 'SlurmctldHost=localhost',
      `SlurmctldPort=${ctldPort}`,
      `SlurmdPort=${slurmdPort}`,
      'SlurmUser=root',
      'SlurmdUser=root',
      'AuthType=auth/munge',
      'CredType=cred/munge',
      ...(options.rest ? ['AuthAltTypes=auth/jwt', `AuthAltParameters=jwt_key=${jwtKey}`] : []),
      `AuthInfo=socket=${socket}`,
      'ProctrackType=proctrack/linuxproc',
      'TaskPlugin=task/none',
      'SelectType=select/cons_tres',
      'SelectTypeParameters=CR_Core_Memory',
      // The node may offer more cores than the machine has: jobs here mostly wait.
      'SlurmdParameters=config_overrides',
      'ReturnToService=2',
      'MpiDefault=none',
      'JobAcctGatherType=jobacct_gather/none',
      'AccountingStorageType=accounting_storage/none',
      'SchedulerParameters=sched_interval=2',
      // Ended jobs stay in squeue for 5 minutes (with no accounting, the only record of how they ended).
      'MinJobAge=300',
      'KillWait=5',
      `StateSaveLocation=${dir}/state`,
      `SlurmdSpoolDir=${dir}/spool/%n`,
      `SlurmctldPidFile=${dir}/slurmctld.pid`,
      `SlurmdPidFile=${dir}/slurmd-%n.pid`,
      `SlurmctldLogFile=${dir}/log/slurmctld.log`,
      `SlurmdLogFile=${dir}/log/slurmd-%n.log`,
      // node2 before localhost: after a node named localhost, Slurm 22.05 calls the next one's host a duplicate.
      ...(link
        ? [`NodeName=node2 NodeAddr=${link.node} CPUs=${cores} RealMemory=${memoryMib} State=UNKNOWN`]
        : []),
      `NodeName=localhost NodeAddr=${link?.host ?? '127.0.0.1'} CPUs=${cores} RealMemory=${memoryMib} State=UNKNOWN`,
      `PartitionName=${partition} Nodes=localhost${link ? ',node2' : ''} Default=YES MaxTime=INFINITE State=UP`,
      '',
    ].join('\n'),
  );
  const env = { ...process.env, SLURM_CONF: conf };
  const children: ChildProcess[] = [];
  const workDirs: string[] = [];
  const daemon = (command: string, args: string[], uid?: number, gid?: number, extraEnv = {}) => {
    const child = spawn(command, args, {
      env: { ...env, ...extraEnv },
      stdio: ['ignore', 'ignore', 'pipe'],
      ...(uid !== undefined && { uid, gid }),
    });
    let errors = '';
    child.stderr?.on('data', (d: Buffer) => {
      errors = (errors + d.toString()).slice(-2000);
    });
    child.on('error', () => undefined);
    children.push(child);
    return () => errors;
  };
  const run = (command: string, args: string[]) =>
    execFileSync(command, args, {
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 30_000,
    });
  daemon(
    '/usr/sbin/munged',
    [
      '--foreground',
      `--key-file=${key}`,
      `--socket=${socket}`,
      `--pid-file=${munge}/munged.pid`,
      `--log-file=${munge}/munged.log`,
      `--seed-file=${munge}/munged.seed`,
    ],
    mungeUid,
    mungeGid,
  );
  const rig: SlurmRig = {
    dir,
    conf,
    partition,
    cores,
    memoryMib,
    ...(link && { hostAddress: link.host }),
    run,
    async close() {
      try {
        // The working directories of the rig's jobs (~/.cumulus/<backend id>) go with it.
        const names = run('squeue', ['-h', '-t', 'all', '-o', '%j']).split('\n');
        for (const name of names) {
          const id = /^cumulus-c\d+-([A-Za-z0-9_-]+)$/.exec(name.trim())?.[1];
          if (id) workDirs.push(path.join(homedir(), '.cumulus', id), path.join(REST_HOME, '.cumulus', id));
        }
        run('scancel', ['--full', `--partition=${partition}`]);
        await waitFor(
          'the rig jobs to end',
          async () => run('squeue', ['-h', '-t', 'PD,R,CG,CF']).trim() === '',
          20_000,
          200,
        ).catch(() => undefined);
      } catch {
        // The daemons did not start: nothing ran.
      }
      await Promise.all(
        children.map(
          (c) =>
            new Promise((resolve) => {
              if (c.exitCode !== null || c.signalCode !== null) return resolve(undefined);
              c.once('exit', resolve);
              c.kill('SIGTERM');
              setTimeout(() => c.kill('SIGKILL'), 5_000).unref();
            }),
        ),
      );
      link?.remove();
      for (const d of workDirs) rmSync(d, { recursive: true, force: true });
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await waitFor('munged', async () => existsSync(socket), 15_000, 50);
    const ctld = daemon('/usr/sbin/slurmctld', ['-D', '-i']);
    await waitFor(
      'slurmctld',
      async () => {
        try {
          run('scontrol', ['ping']);
          return true;
        } catch {
          if (children[1]!.exitCode !== null) throw new Error(`slurmctld exited: ${ctld()}`);
          return false;
        }
      },
      20_000,
      200,
    );
    const slurmd = daemon('/usr/sbin/slurmd', ['-D', '-N', 'localhost']);
    const slurmd2 = link
      ? daemon('/usr/bin/nsenter', [`--net=/run/netns/${link.name}`, '/usr/sbin/slurmd', '-D', '-N', 'node2'])
      : () => '';
    await waitFor(
      'the nodes to be idle',
      async () => {
        if (children[2]!.exitCode !== null) throw new Error(`slurmd exited: ${slurmd()}`);
        if (link && children[3]!.exitCode !== null) throw new Error(`node2's slurmd exited: ${slurmd2()}`);
        return run('sinfo', ['-h', '-N', '-o', '%t'])
          .trim()
          .split('\n')
          .every((s) => s === 'idle');
      },
      30_000,
      200,
    );
    if (options.rest) {
      const restPort = await freePort();
      const nobody = (flag: string) =>
        Number(execFileSync('id', [flag, 'nobody'], { encoding: 'utf8' }).trim());
      // SLURM_JWT=daemon: slurmrestd passes each request's token on to slurmctld (auth/jwt).
      const restd = daemon(
        '/usr/sbin/slurmrestd',
        ['-a', 'rest_auth/jwt', '-s', 'openapi/v0.0.38', `127.0.0.1:${restPort}`],
        nobody('-u'),
        nobody('-g'),
        { SLURM_JWT: 'daemon' },
      );
      const child = children.at(-1)!;
      const url = `http://127.0.0.1:${restPort}`;
      await waitFor(
        'slurmrestd',
        async () => {
          if (child.exitCode !== null) throw new Error(`slurmrestd exited: ${restd()}`);
          // Any answer (401 without a token) says it listens.
          return fetch(`${url}/openapi`).then(
            () => true,
            () => false,
          );
        },
        20_000,
        200,
      );
      rig.rest = {
        url,
        user: REST_USER,
        home: REST_HOME,
        token: (lifespanSeconds = 3600) =>
          /SLURM_JWT=(\S+)/.exec(
            run('scontrol', ['token', `username=${REST_USER}`, `lifespan=${lifespanSeconds}`]),
          )![1]!,
      };
    }
  } catch (err) {
    await rig.close();
    throw err;
  }
  process.env.SLURM_CONF = conf;
  return rig;
}
