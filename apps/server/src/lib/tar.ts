import { gzipSync } from 'node:zlib';

/** A file of an archive: its path inside it, its bytes and its mode. */
export interface TarEntry {
  path: string;
  data: Buffer;
  mode?: number;
  mtime?: Date;
}

const BLOCK = 512;

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

/** One ustar header (POSIX.1-1988): long paths split into prefix and name. */
function header(entry: TarEntry): Buffer {
  const block = Buffer.alloc(BLOCK);
  let name = entry.path;
  let prefix = '';
  if (Buffer.byteLength(name) > 100) {
    const cut = name.lastIndexOf('/', 155);
    prefix = name.slice(0, cut);
    name = name.slice(cut + 1);
    if (cut < 0 || Buffer.byteLength(name) > 100 || Buffer.byteLength(prefix) > 155)
      throw new Error(`${entry.path} is too long for a tar header.`);
  }
  block.write(name, 0, 100, 'utf8');
  block.write(octal(entry.mode ?? 0o644, 8), 100, 8, 'ascii');
  block.write(octal(0, 8), 108, 8, 'ascii');
  block.write(octal(0, 8), 116, 8, 'ascii');
  block.write(octal(entry.data.length, 12), 124, 12, 'ascii');
  block.write(octal(Math.floor((entry.mtime ?? new Date(0)).getTime() / 1000), 12), 136, 12, 'ascii');
  block.write(' '.repeat(8), 148, 8, 'ascii');
  block.write('0', 156, 1, 'ascii');
  block.write('ustar\x0000', 257, 8, 'binary');
  block.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8, 'ascii');
  return block;
}

/** A gzipped ustar archive of regular files, in the order given. */
export function tarGz(entries: TarEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    parts.push(header(entry), entry.data);
    const pad = (BLOCK - (entry.data.length % BLOCK)) % BLOCK;
    if (pad) parts.push(Buffer.alloc(pad));
  }
  parts.push(Buffer.alloc(BLOCK * 2));
  return gzipSync(Buffer.concat(parts));
}
