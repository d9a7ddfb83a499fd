import { createHash } from 'node:crypto';
import { Client } from 'ssh2';
import { final, retryable } from '../errors.js';

/** How Cumulus reaches a host: the account, its key, and the host key pinned at registration. */
export interface SshTarget {
  /** For people: `gpu-1 (10.0.0.5)`. */
  name: string;
  address: string;
  port: number;
  user: string;
  /** OpenSSH private key text. */
  privateKey: string;
  /** `ssh-ed25519 AAAA...`: the only key the host may present (never trust-on-first-use). */
  hostKey: string;
}

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The key blob of an OpenSSH public key line (`type base64 [comment]`), null when it is not one. */
export function hostKeyBlob(line: string): Buffer | null {
  const [type, data] = line.trim().split(/\s+/);
  if (!type || !data || !/^[A-Za-z0-9+/]+=*$/.test(data)) return null;
  const blob = Buffer.from(data, 'base64');
  // The blob starts with its own type name: a key of another type does not pass as this one.
  const named = blob.length > 4 ? blob.subarray(4, 4 + blob.readUInt32BE(0)).toString('latin1') : '';
  return named === type ? blob : null;
}

/** Why a connection failed, in words for the admin reading the host's health. */
export class SshFailure extends Error {
  constructor(
    readonly kind: 'host_key' | 'unreachable' | 'auth',
    message: string,
  ) {
    super(message);
  }
}

const TIMEOUT_MS = 10_000;
/** Channels at once on one connection (sshd's MaxSessions is 10 by default). */
const MAX_CHANNELS = 8;
/** A connection unused this long is closed. */
const IDLE_MS = 15_000;
/** A connection older than this takes no new command (a key revoked since is noticed). */
const MAX_AGE_MS = 5 * 60_000;

/** A connection to a host, shared by the commands run on it meanwhile (`runOn`). */
interface Connection {
  key: string;
  client: Client;
  /** Resolves once authenticated with the pinned host key; rejects with the SshFailure. */
  ready: Promise<void>;
  connected: boolean;
  channels: number;
  born: number;
  dead: boolean;
  pooled: boolean;
  idle?: NodeJS.Timeout;
}

/** Open connections by target (address, port, account, pinned key and private key, hashed). */
const pools = new Map<string, Connection[]>();

const keyOf = (t: SshTarget) =>
  createHash('sha256').update([t.address, t.port, t.user, t.hostKey, t.privateKey].join('\0')).digest('hex');

/** Could not open a channel on the connection: nothing ran. */
class NoChannel extends Error {}

/** Takes no new command; closed once its commands are done. */
function retire(conn: Connection): void {
  if (!conn.dead) {
    conn.dead = true;
    const rest = pools.get(conn.key)?.filter((c) => c !== conn) ?? [];
    if (rest.length > 0) pools.set(conn.key, rest);
    else pools.delete(conn.key);
  }
  if (conn.channels === 0) end(conn);
}

function end(conn: Connection): void {
  if (conn.idle) clearTimeout(conn.idle);
  conn.client.end();
}

/** Closed now (what still runs on it fails as unreachable). */
function drop(conn: Connection): void {
  retire(conn);
  end(conn);
}

/** Connects to `target`, refusing any host key but the pinned one. */
function connect(target: SshTarget, pinned: Buffer, timeoutMs: number, pooled: boolean): Connection {
  const client = new Client();
  const conn: Connection = {
    key: keyOf(target),
    client,
    ready: Promise.resolve(),
    connected: false,
    channels: 0,
    born: Date.now(),
    dead: false,
    pooled,
  };
  let presented: Buffer | null = null;
  conn.ready = new Promise<void>((resolve, reject) => {
    client.once('ready', () => {
      conn.connected = true;
      // An open connection does not keep the server's process alive (its commands' timers do).
      (client as unknown as { _sock?: { unref?: () => void } })._sock?.unref?.();
      resolve();
    });
    client.on('error', (err: Error & { level?: string }) => {
      if (presented && !presented.equals(pinned))
        reject(
          new SshFailure(
            'host_key',
            `${target.name} presented a host key other than the one pinned for it: refused (if the host was reinstalled, pin its new key).`,
          ),
        );
      else if (err.level === 'client-authentication')
        reject(new SshFailure('auth', `${target.name} refused the key of ${target.user}.`));
      else
        reject(
          new SshFailure(
            'unreachable',
            `${target.name} is unreachable on port ${target.port}: ${err.message}`,
          ),
        );
      drop(conn);
    });
    client.on('close', () => {
      reject(new SshFailure('unreachable', `${target.name} closed the connection`));
      drop(conn);
    });
    try {
      client.connect({
        host: target.address,
        port: target.port,
        username: target.user,
        privateKey: target.privateKey,
        readyTimeout: timeoutMs,
        hostVerifier: (key: Buffer) => {
          presented = key;
          return key.equals(pinned);
        },
      });
    } catch (err) {
      // ssh2 throws at once on a private key it cannot parse.
      reject(
        new SshFailure(
          'auth',
          `The private key for ${target.name} cannot be read: ${(err as Error).message}`,
        ),
      );
      drop(conn);
    }
  });
  conn.ready.catch(() => undefined);
  return conn;
}

/** A connection with room for one more command: an open one of the target's, else a new one. */
function acquire(target: SshTarget, pinned: Buffer, timeoutMs: number, reuse: boolean): Connection {
  const now = Date.now();
  const key = keyOf(target);
  let conn = reuse
    ? pools.get(key)?.find((c) => !c.dead && c.channels < MAX_CHANNELS && now - c.born < MAX_AGE_MS)
    : undefined;
  if (!conn) {
    conn = connect(target, pinned, timeoutMs, reuse);
    if (reuse) pools.set(key, [...(pools.get(key) ?? []), conn]);
  }
  conn.channels++;
  if (conn.idle) clearTimeout(conn.idle);
  conn.idle = undefined;
  return conn;
}

function release(conn: Connection): void {
  conn.channels--;
  if (conn.channels > 0) return;
  if (conn.dead || !conn.pooled || Date.now() - conn.born >= MAX_AGE_MS) {
    drop(conn);
    return;
  }
  conn.idle = setTimeout(() => drop(conn), IDLE_MS);
  conn.idle.unref();
}

/** Runs `command` on an acquired connection; rejects with NoChannel where nothing ran. */
function execOn(
  conn: Connection,
  target: SshTarget,
  command: string,
  stdin: string | Buffer,
  timeoutMs: number,
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let opened = false;
    let close: (() => void) | undefined;
    const finish = (err: Error | null, result?: CommandResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      conn.client.off('close', onGone);
      release(conn);
      if (err) reject(err);
      else resolve(result!);
    };
    const onGone = () =>
      finish(
        conn.connected
          ? new SshFailure('unreachable', `${target.name} closed the connection while a command ran`)
          : new NoChannel('not connected'),
      );
    const timer = setTimeout(() => {
      // No channel in time: the connection itself is suspect (a host gone without a word).
      if (!opened) drop(conn);
      close?.();
      finish(new SshFailure('unreachable', `${target.name} did not answer within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    conn.ready.then(
      () => {
        if (settled) return;
        conn.client.once('close', onGone);
        try {
          conn.client.exec(command, (err, stream) => {
            opened = true;
            if (err) return finish(new NoChannel(err.message));
            close = () => stream.close();
            let stdout = '';
            let stderr = '';
            stream.on('data', (d: Buffer) => {
              stdout += d.toString();
            });
            stream.stderr.on('data', (d: Buffer) => {
              stderr += d.toString();
            });
            stream.on('close', (code: number | null) => finish(null, { code, stdout, stderr }));
            stream.end(stdin);
          });
        } catch (err) {
          finish(new NoChannel((err as Error).message));
        }
      },
      (err: Error) => finish(err),
    );
  });
}

/**
 * Runs one command on the host (`stdin` fed to it): the host must present exactly the pinned key,
 * or nothing is sent. Commands share a connection per host (a few at once, closed after a while
 * unused or after 5 minutes), so most skip the key exchange; `reuse: false` connects anew (a
 * health check proves the host takes a new connection). A command that found a shared connection
 * gone before it ran is run once more on a new one.
 */
export async function runOn(
  target: SshTarget,
  command: string,
  options: { stdin?: string | Buffer; timeoutMs?: number; reuse?: boolean } = {},
): Promise<CommandResult> {
  const pinned = hostKeyBlob(target.hostKey);
  if (!pinned)
    throw new SshFailure('host_key', `The pinned host key of ${target.name} is not an OpenSSH public key.`);
  const timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
  for (let attempt = 0; ; attempt++) {
    const conn = acquire(target, pinned, timeoutMs, options.reuse !== false);
    try {
      return await execOn(conn, target, command, options.stdin ?? '', timeoutMs);
    } catch (err) {
      if (!(err instanceof NoChannel)) throw err;
      retire(conn);
      if (attempt > 0) throw new SshFailure('unreachable', `${target.name}: ${err.message}`);
    }
  }
}

/** Closes every open connection (the server stops). */
export function closeSshConnections(): void {
  for (const list of [...pools.values()]) for (const conn of list) drop(conn);
}

/** A backend error for a failed SSH call: a wrong host key or a refused account will not mend by itself. */
export function backendErrorOf(err: unknown) {
  if (err instanceof SshFailure)
    return err.kind === 'unreachable' ? retryable(err.message, err) : final(err.message, err);
  return retryable(err instanceof Error ? err.message : String(err), err);
}
