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

/**
 * Runs one command on the host (`stdin` fed to it), over a connection made for it and closed after:
 * the host must present exactly the pinned key, or nothing is sent.
 */
export function runOn(
  target: SshTarget,
  command: string,
  options: { stdin?: string | Buffer; timeoutMs?: number } = {},
): Promise<CommandResult> {
  const pinned = hostKeyBlob(target.hostKey);
  if (!pinned)
    return Promise.reject(
      new SshFailure('host_key', `The pinned host key of ${target.name} is not an OpenSSH public key.`),
    );
  return new Promise((resolve, reject) => {
    const client = new Client();
    let presented: Buffer | null = null;
    let settled = false;
    const done = (err: Error | null, result?: CommandResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      client.end();
      if (err) reject(err);
      else resolve(result!);
    };
    const timer = setTimeout(
      () =>
        done(
          new SshFailure(
            'unreachable',
            `${target.name} did not answer within ${(options.timeoutMs ?? TIMEOUT_MS) / 1000} s`,
          ),
        ),
      options.timeoutMs ?? TIMEOUT_MS,
    );
    client.on('ready', () => {
      client.exec(command, (err, stream) => {
        if (err) return done(new SshFailure('unreachable', `${target.name}: ${err.message}`));
        let stdout = '';
        let stderr = '';
        stream.on('data', (d: Buffer) => {
          stdout += d.toString();
        });
        stream.stderr.on('data', (d: Buffer) => {
          stderr += d.toString();
        });
        stream.on('close', (code: number | null) => done(null, { code, stdout, stderr }));
        stream.end(options.stdin ?? '');
      });
    });
    client.on('error', (err: Error & { level?: string }) => {
      if (presented && !presented.equals(pinned))
        return done(
          new SshFailure(
            'host_key',
            `${target.name} presented a host key other than the one pinned for it: refused (if the host was reinstalled, pin its new key).`,
          ),
        );
      if (err.level === 'client-authentication')
        return done(new SshFailure('auth', `${target.name} refused the key of ${target.user}.`));
      done(
        new SshFailure('unreachable', `${target.name} is unreachable on port ${target.port}: ${err.message}`),
      );
    });
    try {
      client.connect({
        host: target.address,
        port: target.port,
        username: target.user,
        privateKey: target.privateKey,
        readyTimeout: options.timeoutMs ?? TIMEOUT_MS,
        hostVerifier: (key: Buffer) => {
          presented = key;
          return key.equals(pinned);
        },
      });
    } catch (err) {
      // ssh2 throws at once on a private key it cannot parse.
      done(
        new SshFailure(
          'auth',
          `The private key for ${target.name} cannot be read: ${(err as Error).message}`,
        ),
      );
    }
  });
}

/** A backend error for a failed SSH call: a wrong host key or a refused account will not mend by itself. */
export function backendErrorOf(err: unknown) {
  if (err instanceof SshFailure)
    return err.kind === 'unreachable' ? retryable(err.message, err) : final(err.message, err);
  return retryable(err instanceof Error ? err.message : String(err), err);
}
