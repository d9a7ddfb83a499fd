import { createHash } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';

/**
 * The unprivileged uids the local backend runs tenants' code under: one per cluster and one per
 * build, from a range no account of the machine uses (each uid has a group of the same number and
 * no passwd entry: nothing on the machine grants it anything).
 *
 * Several servers may share a machine (tests run many at once), so which server holds which uid is
 * recorded machine-wide: a file per held uid in the registry naming its holder (data directory and
 * key), written under a lock. Each server also keeps its own index (`<dataDir>/identities/<key>`),
 * so a cluster adopted after a restart gets its uid back. A claim whose holder is gone (its data
 * directory deleted, or its index no longer names that uid) is taken over, its leftover processes
 * killed first by the caller.
 */
export interface IdentityRegistryOptions {
  /** Machine-wide: where held uids are recorded. */
  registryDir: string;
  base: number;
  count: number;
  /** This server's data directory: the holder named in its claims. */
  dataDir: string;
}

export interface Claim {
  uid: number;
  /** Whether the uid was another holder's, gone now: what ran under it must be ended before use. */
  takenOver: boolean;
}

const LOCK_STALE_MS = 30_000;

export class IdentityRegistry {
  private readonly index: string;

  constructor(private readonly options: IdentityRegistryOptions) {
    this.index = path.join(options.dataDir, 'identities');
  }

  /** The uid a key holds on this server, if it holds one. */
  find(key: string): number | null {
    const uid = Number(readText(path.join(this.index, checkKey(key))));
    return Number.isInteger(uid) && uid > 0 && this.holds(uid, key) ? uid : null;
  }

  /** The key's uid: the one it holds already, or a free one claimed for it now. */
  claim(key: string): Claim {
    checkKey(key);
    const held = this.find(key);
    if (held !== null) return { uid: held, takenOver: false };
    return this.locked(() => {
      const { base, count } = this.options;
      const start = Number.parseInt(sha(`${this.options.dataDir}\0${key}`).slice(0, 8), 16) % count;
      for (let i = 0; i < count; i++) {
        const uid = base + ((start + i) % count);
        const file = this.claimFile(uid);
        const holder = readText(file);
        const takenOver = holder !== null;
        if (takenOver && !this.abandoned(uid, holder)) continue;
        writeAtomically(file, `${this.options.dataDir}\n${key}\n`);
        mkdirSync(this.index, { recursive: true, mode: 0o700 });
        writeAtomically(path.join(this.index, key), `${uid}\n`);
        return { uid, takenOver };
      }
      throw new Error(`Every uid from ${base} to ${base + count - 1} is held (CUMULUS_LOCAL_UID_COUNT)`);
    });
  }

  /** Gives the key's uid back (the caller has ended what ran under it). */
  release(key: string): void {
    const uid = this.find(key);
    rmSync(path.join(this.index, checkKey(key)), { force: true });
    if (uid === null) return;
    this.locked(() => {
      if (this.holds(uid, key)) rmSync(this.claimFile(uid), { force: true });
    });
  }

  private holds(uid: number, key: string): boolean {
    return readText(this.claimFile(uid)) === `${this.options.dataDir}\n${key}\n`;
  }

  /** A claim whose holder no longer has it: its data directory is gone, or its index names another uid. */
  private abandoned(uid: number, holder: string): boolean {
    const [dataDir, key] = holder.split('\n');
    if (!dataDir || !key || !/^[a-z0-9-]+$/.test(key)) return true;
    return Number(readText(path.join(dataDir, 'identities', key))) !== uid;
  }

  private claimFile(uid: number): string {
    return path.join(this.options.registryDir, String(uid));
  }

  /** Runs `fn` holding the registry's lock (a file made exclusively; one left by a dead holder expires). */
  private locked<T>(fn: () => T): T {
    mkdirSync(this.options.registryDir, { recursive: true, mode: 0o700 });
    chmodSync(this.options.registryDir, 0o700);
    const lock = path.join(this.options.registryDir, '.lock');
    const deadline = Date.now() + LOCK_STALE_MS * 2;
    for (;;) {
      try {
        closeSync(openSync(lock, 'wx', 0o600));
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        const holder = Number(readText(lock));
        if (lockAbandoned(lock, holder) || Date.now() > deadline) rmSync(lock, { force: true });
        else sleepSync(2);
      }
    }
    try {
      writeFileSync(lock, String(process.pid));
      return fn();
    } finally {
      rmSync(lock, { force: true });
    }
  }
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

function checkKey(key: string): string {
  if (!/^[a-z0-9-]{1,64}$/.test(key)) throw new Error(`Not an identity key: ${key}`);
  return key;
}

function readText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

function writeAtomically(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { mode: 0o600 });
  renameSync(temporary, file);
}

/** A lock whose writer is no longer running (or wrote nothing for too long). */
function lockAbandoned(lock: string, pid: number): boolean {
  if (Number.isInteger(pid) && pid > 0) {
    try {
      process.kill(pid, 0);
      return false;
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === 'ESRCH';
    }
  }
  // Made but not written yet, or emptied: only once it is old.
  try {
    return Date.now() - statSync(lock).mtimeMs > LOCK_STALE_MS;
  } catch {
    return true;
  }
}

const waiter = new Int32Array(new SharedArrayBuffer(4));
function sleepSync(ms: number): void {
  Atomics.wait(waiter, 0, 0, ms);
}
