import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Signer } from '../../../lib/crypto.js';

/** Links to a store's files expire after this long. */
export const LINK_SECONDS = 6 * 3600;
/** One file in a store is at most this big. */
export const MAX_FILE_BYTES = 4 * 2 ** 30;

const signer = (secret: string) => new Signer(secret, 'filestore-blob');

export const storeRoot = (dataDir: string, fsId: number) =>
  path.join(dataDir, 'filestores', String(fsId), 'files');

/** Where a relative path of a store is on disk; null when it would leave the store. */
export function fileOf(dataDir: string, fsId: number, relative: string): string | null {
  const root = storeRoot(dataDir, fsId);
  const full = path.resolve(root, relative);
  return full.startsWith(root + path.sep) ? full : null;
}

export type Direction = 'upload' | 'download';

/** A link Cumulus itself serves: one store, one path, one direction, until it expires. */
export function signedLink(
  config: { secret: string; publicUrl: string },
  fsId: number,
  direction: Direction,
  relative: string,
): string {
  const expires = Math.floor(Date.now() / 1000) + LINK_SECONDS;
  const signature = signer(config.secret).sign(`${fsId}:${direction}:${relative}:${expires}`);
  const query = new URLSearchParams({ path: relative, expires: String(expires), signature });
  return `${config.publicUrl}/api/v2/filestore/blob/${fsId}/${direction}?${query}`;
}

export function linkValid(
  secret: string,
  fsId: number,
  direction: Direction,
  q: { path: string; expires: number; signature: string },
) {
  return (
    q.expires >= Date.now() / 1000 &&
    signer(secret).verify(`${fsId}:${direction}:${q.path}:${q.expires}`, q.signature)
  );
}

export interface StoredFile {
  relative: string;
  size: number;
  /** Epoch seconds. */
  modified: number;
}

/** Every file of a store, by relative path (partial uploads left out). */
export async function listFiles(dataDir: string, fsId: number): Promise<StoredFile[]> {
  const root = storeRoot(dataDir, fsId);
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  const files = await Promise.all(
    entries
      .filter((e) => e.isFile() && !e.name.includes('.partial-'))
      .map(async (e) => {
        const full = path.join(e.parentPath, e.name);
        const info = await stat(full);
        return {
          relative: path.relative(root, full).split(path.sep).join('/'),
          size: info.size,
          modified: info.mtimeMs / 1000,
        };
      }),
  );
  return files.sort((a, b) => a.relative.localeCompare(b.relative));
}

export async function clearFiles(dataDir: string, fsId: number): Promise<void> {
  await rm(storeRoot(dataDir, fsId), { recursive: true, force: true });
}
