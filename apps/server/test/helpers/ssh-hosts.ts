import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  endProcessesOf,
  findInstanceProcesses,
  type LocalProcess,
} from '../../src/compute/local-processes.js';
import { ensureSubordinateIds } from './subordinate-ids.js';
import { waitFor } from './wait.js';

/**
 * SSH hosts for tests: real OpenSSH servers (Debian's openssh-server), one per loopback address
 * (127.0.0.2, 127.0.0.3 ...: each a "host" with an address of its own) on a port of the rig's own,
 * each with a host key made here, all letting one account in with one user key. The account is the
 * one cluster processes run as (the host account a workspace admin registers); each of the machine's
 * RIG_SLOTS rigs at once has its own, made once per machine, its home fixed.
 */
export const RIG_ACCOUNT = 'cumulus-ssh-rig';
/** Rigs that may run at once on this machine (two test files, a browser file beside a server file). */
const RIG_SLOTS = 2;
const accountOf = (slot: number) => (slot === 0 ? RIG_ACCOUNT : `${RIG_ACCOUNT}${slot}`);
const SSHD = '/usr/sbin/sshd';

export interface RigHost {
  address: string;
  port: number;
  /** The host's public key line (`ssh-ed25519 AAAA...`): what an admin pins. */
  hostKey: string;
  /** Stops its sshd (the machine going away, with `killProcesses` for what ran there). */
  stop(): Promise<void>;
  start(): Promise<void>;
}

export interface SshRig {
  dir: string;
  user: string;
  home: string;
  /** The account's private key (OpenSSH format), as an admin gives it at registration. */
  privateKey: string;
  hosts: RigHost[];
  /** Stops every sshd and removes the rig's files (the account stays, with nothing of the rig). */
  close(): Promise<void>;
}

function run(command: string, args: string[]): string {
  return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Installs openssh-server where it is missing (as scripts/setup.sh --ssh does), or fails saying so. */
function ensureSshd(): void {
  if (existsSync(SSHD)) return;
  try {
    execFileSync('apt-get', ['install', '-y', '-qq', 'openssh-server'], {
      stdio: 'ignore',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      timeout: 300_000,
    });
  } catch {
    // Said below.
  }
  if (!existsSync(SSHD))
    throw new Error(`${SSHD} is missing: run scripts/setup.sh --ssh (apt-get install openssh-server)`);
}

/** An account's home, fixed (sshd finds it by the account); each instance's directory is under it. */
const homeOf = (account: string) => `/var/lib/${account}`;

function ensureAccount(account: string): void {
  try {
    run('id', ['-u', account]);
  } catch {
    run('useradd', ['--create-home', '--home-dir', homeOf(account), '--shell', '/bin/bash', account]);
    // '*': no password, but not locked (sshd refuses public keys of a locked account without PAM).
    run('usermod', ['-p', '*', account]);
  }
  // Rootless podman, for container environments' instances.
  ensureSubordinateIds(account);
}

const portOpen = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host, port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/**
 * One rig per slot: a rig's hosts let its slot's account in, and its close ends whatever that
 * account runs and removes its ~/.cumulus, so two rigs of one account (two test files, a browser
 * file beside a server file) would end each other's clusters. A rig holds its slot's directory,
 * naming its process, until it closes; a holder whose process is gone held it for nothing. With
 * every slot held, a rig waits for one.
 */
const lockOf = (slot: number) => path.join(tmpdir(), `cumulus-ssh-rig-${slot}.lock`);
export const RIG_LOCK_WAIT_MS = 10 * 60_000;

async function holdRigSlot(): Promise<{ slot: number; release: () => void }> {
  const deadline = Date.now() + RIG_LOCK_WAIT_MS;
  for (;;) {
    const holders: string[] = [];
    for (let slot = 0; slot < RIG_SLOTS; slot++) {
      const lock = lockOf(slot);
      try {
        mkdirSync(lock);
        writeFileSync(path.join(lock, 'pid'), String(process.pid));
        return { slot, release: () => rmSync(lock, { recursive: true, force: true }) };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const holder = Number(readFileSyncOr(path.join(lock, 'pid')));
      if (holder && !alive(holder)) rmSync(lock, { recursive: true, force: true });
      holders.push(String(holder || '(starting)'));
    }
    if (Date.now() > deadline)
      throw new Error(
        `the SSH rigs are held by processes ${holders.join(', ')} for more than ${RIG_LOCK_WAIT_MS / 1000} s`,
      );
    await new Promise((r) => setTimeout(r, 250));
  }
}

function readFileSyncOr(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Starts `count` hosts (127.0.0.2 onwards) on one port of their own addresses, once a slot is free
 * (holdRigSlot: callers give their set-up RIG_LOCK_WAIT_MS and more).
 */
export async function startSshRig(count = 2): Promise<SshRig> {
  const { slot, release } = await holdRigSlot();
  try {
    return await startHeldRig(count, accountOf(slot), release);
  } catch (err) {
    release();
    throw err;
  }
}

async function startHeldRig(count: number, account: string, release: () => void): Promise<SshRig> {
  ensureSshd();
  mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const dir = mkdtempSync(path.join(tmpdir(), 'cumulus-ssh-rig-'));
  chmodSync(dir, 0o755);
  ensureAccount(account);
  const home = homeOf(account);
  const userKey = path.join(dir, 'user_key');
  run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'cumulus-rig', '-f', userKey]);
  const authorized = path.join(dir, 'authorized_keys');
  writeFileSync(authorized, readFileSync(`${userKey}.pub`), { mode: 0o644 });
  // A port nobody uses on any of the addresses: one for all (each host is its address).
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const hosts: RigHost[] = [];
  const children = new Set<ChildProcess>();
  for (let i = 0; i < count; i++) {
    const address = `127.0.0.${i + 2}`;
    const hostKey = path.join(dir, `host-${i}_key`);
    run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', '', '-f', hostKey]);
    const config = path.join(dir, `sshd-${i}.conf`);
    writeFileSync(
      config,
      [
        `ListenAddress ${address}:${port}`,
        `HostKey ${hostKey}`,
        `PidFile ${path.join(dir, `sshd-${i}.pid`)}`,
        `AuthorizedKeysFile ${authorized}`,
        'PubkeyAuthentication yes',
        'PasswordAuthentication no',
        'KbdInteractiveAuthentication no',
        'UsePAM no',
        'StrictModes no',
        `AllowUsers ${account}`,
        'LogLevel ERROR',
        '',
      ].join('\n'),
    );
    let child: ChildProcess | undefined;
    const host: RigHost = {
      address,
      port,
      hostKey: readFileSync(`${hostKey}.pub`, 'utf8').trim().split(' ').slice(0, 2).join(' '),
      async start() {
        if (child) return;
        const started = spawn(SSHD, ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
        let errors = '';
        started.stderr?.on('data', (d: Buffer) => {
          errors += d.toString();
        });
        child = started;
        children.add(started);
        started.once('exit', () => {
          children.delete(started);
          if (child === started) child = undefined;
        });
        await waitFor(
          `sshd on ${address}:${port}`,
          async () => {
            if (started.exitCode !== null) throw new Error(`sshd exited: ${errors}`);
            return portOpen(address, port);
          },
          15_000,
          50,
        );
      },
      async stop() {
        const running = child;
        if (!running) return;
        child = undefined;
        const exited = new Promise((r) => running.once('exit', r));
        running.kill('SIGTERM');
        await exited;
      },
    };
    await host.start();
    hosts.push(host);
  }
  return {
    dir,
    user: account,
    home,
    privateKey: readFileSync(userKey, 'utf8'),
    hosts,
    async close() {
      try {
        await Promise.all(hosts.map((h) => h.stop()));
        for (const c of children) c.kill('SIGKILL');
        // What the account still runs here (agents of a test that failed) ends with the rig, and so do their directories.
        await endProcessesOf(Number(run('id', ['-u', account]).trim()));
        rmSync(path.join(home, '.cumulus'), { recursive: true, force: true });
        rmSync(dir, { recursive: true, force: true });
      } finally {
        release();
      }
    },
  };
}

/**
 * What a workspace admin registers for the rig's host `i` (`POST /api/v2/ssh-hosts/{ws}`): named
 * `rig-<i + 2>` as its address ends, 3 cores and 4 GiB unless `extra` says otherwise.
 */
export const rigHostBody = (rig: SshRig, i: number, extra: Record<string, unknown> = {}) => ({
  name: `rig-${i + 2}`,
  address: rig.hosts[i]!.address,
  port: rig.hosts[i]!.port,
  user: rig.user,
  host_key: rig.hosts[i]!.hostKey,
  private_key: rig.privateKey,
  cores: 3,
  memory_mib: 4096,
  python: '/usr/bin/python3',
  ...extra,
});

/** An instance as the SSH tests know it: its backend id and the backend data its launch answered. */
interface SshInstanceRow {
  backendId: string;
  backendData?: Record<string, unknown> | null;
}

/**
 * The processes on this machine of these SSH instances: those started as the instance, and those
 * of the warm process it took (compute/ssh/warm.ts), known by its backend data and by the record
 * on the rig's home (`~/.cumulus/<id>/warm`, kept while it runs).
 */
export async function rigProcessesOf(home: string, rows: readonly SshInstanceRow[]): Promise<LocalProcess[]> {
  const startedAs = new Set<string>();
  for (const row of rows) {
    startedAs.add(row.backendId);
    if (typeof row.backendData?.warmId === 'string') startedAs.add(row.backendData.warmId);
    const recorded = path.join(home, '.cumulus', row.backendId, 'warm');
    if (existsSync(recorded)) startedAs.add(readFileSync(recorded, 'utf8').trim());
  }
  return (await findInstanceProcesses()).filter((p) => startedAs.has(p.backendId));
}
