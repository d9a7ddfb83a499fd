import { readdir, readFile, readlink } from 'node:fs/promises';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { findInstanceProcesses } from './local-processes.js';

/** A TCP socket in the LISTEN state, as /proc/net/tcp and tcp6 list it. */
interface Listening {
  address: string;
  port: number;
  inode: string;
}

const LISTEN = '0A';

/** `0100007F` (tcp) or four such words (tcp6), each little-endian: the address they hold. */
function addressOf(hex: string): string {
  const bytes = (hex.match(/../g) ?? []).map((b) => Number.parseInt(b, 16));
  const words: number[] = [];
  for (let i = 0; i < bytes.length; i += 4) words.push(...bytes.slice(i, i + 4).reverse());
  if (words.length === 4) return words.join('.');
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((words[i]! << 8) | words[i + 1]!).toString(16));
  return normal(groups.join(':'));
}

/** One spelling per address: IPv6 compressed, an IPv4-mapped IPv6 address as its IPv4 one. */
function normal(address: string): string {
  const host = address.replace(/^\[|\]$/g, '').toLowerCase();
  if (isIP(host) !== 6) return host;
  const compressed = new URL(`http://[${host}]/`).hostname.slice(1, -1);
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(compressed);
  if (!mapped) return compressed;
  const [hi, lo] = [Number.parseInt(mapped[1]!, 16), Number.parseInt(mapped[2]!, 16)];
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

async function listening(): Promise<Listening[]> {
  const tables = await Promise.all(
    ['/proc/net/tcp', '/proc/net/tcp6'].map((file) => readFile(file, 'latin1').catch(() => '')),
  );
  return tables.flatMap((table) =>
    table
      .split('\n')
      .slice(1)
      .flatMap((line) => {
        // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode ...
        const fields = line.trim().split(/\s+/);
        if (fields[3] !== LISTEN || !fields[1] || !fields[9]) return [];
        const [hex, port] = fields[1].split(':');
        return [{ address: addressOf(hex ?? ''), port: Number.parseInt(port ?? '', 16), inode: fields[9] }];
      }),
  );
}

/** Loopback, or an address of one of this machine's interfaces. */
function isThisMachine(host: string): boolean {
  if (host === '::1' || /^127\./.test(host)) return true;
  return Object.values(networkInterfaces()).some((list) => list?.some((a) => normal(a.address) === host));
}

const WILDCARD = new Set(['0.0.0.0', '::']);

/**
 * Whether one of a local instance's own processes (found by the ids it carries, local-processes.ts)
 * listens on `host:port` of this machine: a LISTEN socket on that port, bound to that address or
 * to all, whose inode is among the open files of one of those processes. How the local backend,
 * whose ports are chosen freely, vouches for where an agent says its scheduler serves.
 */
export async function instanceListensOn(
  ids: readonly string[],
  { host, port }: { host: string; port: number },
): Promise<boolean> {
  const address = normal(host);
  if (!isIP(address) || !isThisMachine(address)) return false;
  const sockets = (await listening()).filter(
    (s) => s.port === port && (s.address === address || WILDCARD.has(s.address)),
  );
  if (sockets.length === 0) return false;
  const inodes = new Set(sockets.map((s) => `socket:[${s.inode}]`));
  for (const { pid } of (await findInstanceProcesses()).filter((p) => ids.includes(p.backendId))) {
    const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
    const links = await Promise.all(fds.map((fd) => readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')));
    if (links.some((link) => inodes.has(link))) return true;
  }
  return false;
}
