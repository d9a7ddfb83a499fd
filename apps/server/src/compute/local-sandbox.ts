import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { chmod, chown, lchown, lstat, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { PYTHON_DIR } from '../paths.js';
import type { Tenancy } from './backend.js';
import { IdentityRegistry } from './local-identities.js';
import { endProcessesOf } from './local-processes.js';

export interface SandboxOptions {
  setting: 'auto' | 'users' | 'operator';
  uidBase: number;
  uidCount: number;
  registryDir: string;
  dataDir: string;
  /** The interpreter clusters and builds run (CUMULUS_PYTHON). */
  python: string;
}

/** A uid (and the group of the same number) that a cluster's or a build's processes run as. */
export interface Identity {
  uid: number;
  gid: number;
  /** USER and LOGNAME: the uid has no passwd entry. */
  name: string;
}

/** What lives directly in the data directory and cluster users may enter (nothing else is theirs). */
const SHARED = { instances: 0o711, environments: 0o711, runtime: 0o755 } as const;
/** Made private before any of it is written: uploads, filestores, task output, build archives. */
const PRIVATE = ['packages', 'filestores', 'jobs', 'environments/archives', 'identities'];

/**
 * Who the local backend runs tenants' code as. Cluster processes and builds (pip runs a package's
 * own build code) are code a user chose, so with `users` each cluster and each build gets an
 * unprivileged uid of its own (local-identities.ts) that owns nothing of the server: the data
 * directory is traversable but not listable, and everything in it is private to the server except
 * the instances' own work dirs (each owned by its cluster's uid, 0700), the built environments
 * (root's, read-only to all) and the agent's code (`runtime/`). Where that cannot be (the server is
 * not root, or cluster users could not reach the data directory), the backend runs them as the
 * server's own user, for its operator alone (`operator`: the clusters domain refuses others).
 */
export class LocalSandbox {
  private decided: Promise<Tenancy> | undefined;
  private readonly registry: IdentityRegistry;
  /** Where cluster processes import the agent from (PYTHONPATH). */
  pythonPath = PYTHON_DIR;

  constructor(private readonly options: SandboxOptions) {
    this.registry = new IdentityRegistry({
      registryDir: options.registryDir,
      base: options.uidBase,
      count: options.uidCount,
      dataDir: options.dataDir,
    });
  }

  /** Decides (once) who tenants' code runs as, preparing the data directory for `users`. */
  tenancy(): Promise<Tenancy> {
    this.decided ??= this.decide();
    return this.decided;
  }

  /** The identity a key (`cluster-12`, `build-3`) runs as; null when tenants run as the server. */
  async identity(key: string): Promise<Identity | null> {
    if ((await this.tenancy()).mode !== 'users') return null;
    // What appeared in the data directory since (a log file a rotation made anew, with the
    // operator's umask) is made private too before any tenant's process starts.
    closeEntries(this.options.dataDir);
    const { uid, takenOver } = this.registry.claim(key);
    // Whatever a former holder left running under it ends before this one starts.
    if (takenOver) await endProcessesOf(uid);
    return { uid, gid: uid, name: `cumulus-${uid}` };
  }

  /** The identity a key holds already, if any (a cluster being stopped). */
  held(key: string): Identity | null {
    const uid = this.registry.find(key);
    return uid === null ? null : { uid, gid: uid, name: `cumulus-${uid}` };
  }

  /** Ends everything the key's uid runs and gives the uid back. */
  async release(key: string): Promise<void> {
    const uid = this.registry.find(key);
    if (uid !== null) await endProcessesOf(uid);
    this.registry.release(key);
  }

  /** A directory only `who` may use (and root): made, then given to them, 0700. */
  async privateDir(dir: string, who: Identity | null): Promise<void> {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!who) return;
    await chown(dir, who.uid, who.gid);
    await chmod(dir, 0o700);
  }

  /** Takes a directory back from the identity that used it: root's, 0700 (what is in it stays unread). */
  async takeBack(dir: string): Promise<void> {
    if (!existsSync(dir)) return;
    await chown(dir, 0, 0);
    await chmod(dir, 0o700);
  }

  /**
   * Makes a tree root's and read-only to everyone else (a built environment, once its build's
   * processes have ended): nothing a build left can change it afterwards or point outside it.
   * Symlinks are re-owned, never followed; special files go; a hard link is refused (protected
   * hardlinks keep a uid from linking what it does not own, and pip makes none).
   */
  async seal(dir: string): Promise<void> {
    const walk = async (at: string): Promise<void> => {
      const info = await lstat(at);
      if (info.isSymbolicLink()) return lchown(at, 0, 0);
      if (info.isDirectory()) {
        await chown(at, 0, 0);
        await chmod(at, 0o755);
        for (const entry of await readdir(at)) await walk(path.join(at, entry));
        return;
      }
      if (!info.isFile()) return rm(at, { force: true });
      if (info.nlink > 1) throw new Error(`${at} is a hard link to a file outside the environment`);
      await chown(at, 0, 0);
      await chmod(at, info.mode & 0o111 ? 0o755 : 0o644);
    };
    await walk(dir);
  }

  private async decide(): Promise<Tenancy> {
    const { setting, dataDir } = this.options;
    const refuse = (reason: string): Tenancy => {
      if (setting === 'users') throw new Error(`CUMULUS_LOCAL_ISOLATION=users: ${reason}`);
      return { mode: 'operator', reason };
    };
    if (setting === 'operator') return { mode: 'operator', reason: 'CUMULUS_LOCAL_ISOLATION is operator' };
    if (process.getuid?.() !== 0) return refuse('the server does not run as root');
    const closed = closedAncestor(dataDir);
    if (closed)
      return refuse(
        `its data directory ${dataDir} is inside ${closed}, which other users cannot enter (set CUMULUS_DATA_DIR elsewhere, e.g. /var/lib/cumulus)`,
      );
    secureDataDir(dataDir);
    this.pythonPath = copyAgent(dataDir);
    const failure = await this.probe();
    return failure ? refuse(failure) : { mode: 'users' };
  }

  /** Whether an unprivileged uid can run the agent and Dask from here; the reason when it cannot. */
  private async probe(): Promise<string | null> {
    const key = `probe-${process.pid}`;
    const { uid, takenOver } = this.registry.claim(key);
    if (takenOver) await endProcessesOf(uid);
    const home = path.join(this.options.dataDir, 'instances', `.${key}`);
    try {
      mkdirSync(home, { recursive: true, mode: 0o700 });
      chownSync(home, uid, uid);
      const { code, output } = await runAs(
        uid,
        [this.options.python, '-c', 'import distributed, cumulus.agent'],
        { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, PYTHONPATH: this.pythonPath },
        home,
      );
      if (code === 0) return null;
      const last = output.trim().split('\n').at(-1) ?? `exit code ${code}`;
      return `an unprivileged user cannot run ${this.options.python} with the agent here: ${last}`;
    } finally {
      await endProcessesOf(uid);
      this.registry.release(key);
      await rm(home, { recursive: true, force: true });
    }
  }
}

/** The first ancestor of `dir` that others cannot traverse (no o+x), if any. */
function closedAncestor(dir: string): string | null {
  for (let at = path.dirname(dir); ; at = path.dirname(at)) {
    if (!(statSync(at).mode & 0o001)) return at;
    if (at === path.dirname(at)) return null;
  }
}

/** The data directory traversable, only SHARED entries open, everything else private to root. */
function secureDataDir(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true });
  chmodSync(dataDir, 0o711);
  for (const name of PRIVATE) mkdirSync(path.join(dataDir, name), { recursive: true, mode: 0o700 });
  for (const [name, mode] of Object.entries(SHARED)) {
    mkdirSync(path.join(dataDir, name), { recursive: true });
    chmodSync(path.join(dataDir, name), mode);
  }
  closeEntries(dataDir);
  chmodSync(path.join(dataDir, 'environments', 'archives'), 0o700);
}

/** Every entry of the data directory but the shared ones: its owner's alone. */
function closeEntries(dataDir: string): void {
  for (const entry of readdirSync(dataDir)) {
    if (entry in SHARED) continue;
    const at = path.join(dataDir, entry);
    try {
      const { mode } = statSync(at);
      if (mode & 0o077) chmodSync(at, mode & 0o700);
    } catch {
      // gone meanwhile
    }
  }
}

/**
 * The agent's code (python/cumulus) copied where cluster users can read it, named by its content:
 * the checkout may sit where they cannot (under /root), and a copy that running agents import from
 * is never changed under them.
 */
function copyAgent(dataDir: string): string {
  const source = path.join(PYTHON_DIR, 'cumulus');
  const hash = createHash('sha256');
  const files = listFiles(source);
  for (const file of files) hash.update(file).update(statSync(path.join(source, file)).mtimeMs.toString());
  const target = path.join(dataDir, 'runtime', hash.digest('hex').slice(0, 16));
  if (!existsSync(path.join(target, 'cumulus'))) {
    const temporary = `${target}.${process.pid}`;
    cpSync(source, path.join(temporary, 'cumulus'), {
      recursive: true,
      filter: (from) => !from.includes('__pycache__'),
    });
    openUp(temporary);
    try {
      renameSync(temporary, target);
    } catch (err) {
      // Another server copied the same first: its copy serves.
      if (!['EEXIST', 'ENOTEMPTY'].includes((err as NodeJS.ErrnoException).code ?? '')) throw err;
      rmSync(temporary, { recursive: true, force: true });
    }
  }
  return target;
}

function listFiles(dir: string, prefix = ''): string[] {
  return readdirSync(path.join(dir, prefix), { withFileTypes: true })
    .filter((entry) => entry.name !== '__pycache__')
    .flatMap((entry) =>
      entry.isDirectory() ? listFiles(dir, path.join(prefix, entry.name)) : [path.join(prefix, entry.name)],
    )
    .sort();
}

/** Directories 0755, files 0644: readable by every cluster user, writable by none. */
function openUp(dir: string): void {
  chmodSync(dir, 0o755);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const at = path.join(dir, entry.name);
    if (entry.isDirectory()) openUp(at);
    else chmodSync(at, 0o644);
  }
}

/** Runs a command as `uid` (its own group, no other), answering its exit code and output. */
export function runAs(
  uid: number,
  args: string[],
  env: Record<string, string>,
  cwd: string,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(args[0]!, args.slice(1), {
      uid,
      gid: uid,
      env,
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.stderr!.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}
