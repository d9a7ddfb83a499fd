import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Streams an upload to `target` (mode 600) through a partial file renamed into place once whole,
 * so readers never see half a file; past `maxBytes` it stops with `tooLarge()` and keeps nothing.
 * Answers the bytes written.
 */
export async function receiveFile(
  body: NodeJS.ReadableStream,
  target: string,
  maxBytes: number,
  tooLarge: () => Error,
): Promise<number> {
  await mkdir(path.dirname(target), { recursive: true });
  const partial = `${target}.partial-${process.pid}-${Math.random().toString(36).slice(2)}`;
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      done(size > maxBytes ? tooLarge() : null, chunk);
    },
  });
  try {
    await pipeline(body, counter, createWriteStream(partial, { mode: 0o600 }));
    await rename(partial, target);
  } catch (err) {
    await rm(partial, { force: true });
    throw err;
  }
  return size;
}
