import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** What the sender said it would send, and the error for less. */
export interface Announced {
  bytes: number;
  short: (received: number) => Error;
}

export interface ReceiveOptions {
  maxBytes: number;
  tooLarge: () => Error;
  /** What the sender announced (Content-Length): a body that ends short of it is no file. */
  announced?: Announced;
  /** Sees every chunk on its way to disk (to hash it, say). */
  onChunk?: (chunk: Buffer) => void;
  /** Runs once the whole body is on disk, before it takes the target's place: a throw keeps nothing. */
  verify?: (size: number) => void | Promise<void>;
}

/**
 * Streams an upload to `target` (mode 600) through a partial file renamed into place once whole,
 * so readers never see half a file; past `maxBytes` it stops with `tooLarge()` and keeps nothing,
 * and so it does when the body ends short of what was announced or breaks off (the sender went
 * away: the request stream fails and the pipeline with it). Answers the bytes written.
 */
export async function receiveFile(
  body: NodeJS.ReadableStream,
  target: string,
  options: ReceiveOptions,
): Promise<number> {
  const { maxBytes, tooLarge, announced, onChunk, verify } = options;
  await mkdir(path.dirname(target), { recursive: true });
  const partial = partialPath(target);
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > maxBytes) return done(tooLarge());
      onChunk?.(chunk);
      done(null, chunk);
    },
  });
  try {
    await pipeline(body, counter, createWriteStream(partial, { mode: 0o600 }));
    if (announced && size !== announced.bytes) throw announced.short(size);
    await verify?.(size);
    await rename(partial, target);
  } catch (err) {
    await rm(partial, { force: true });
    throw err;
  }
  return size;
}

/** Where a file is written before it is whole: beside its target, under a name no reader lists. */
export const partialPath = (target: string) =>
  `${target}.partial-${process.pid}-${Math.random().toString(36).slice(2)}`;
