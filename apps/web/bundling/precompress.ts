import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text the server sends precompressed; images and fonts are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map)$/;
/** Below this a compressed copy saves less than its headers cost. */
const MIN_BYTES = 1024;

/** Writes `file.br` (brotli, best) and `file.gz` (gzip, best) beside `file`, where they are smaller. */
export async function precompressFile(file: string): Promise<void> {
  const bytes = await readFile(file);
  if (bytes.length < MIN_BYTES) return;
  const [br, gz] = await Promise.all([
    brotli(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    }),
    gzipAsync(bytes, { level: constants.Z_BEST_COMPRESSION }),
  ]);
  await Promise.all([
    br.length < bytes.length ? writeFile(`${file}.br`, br) : undefined,
    gz.length < bytes.length ? writeFile(`${file}.gz`, gz) : undefined,
  ]);
}

/**
 * Precompresses the built console once, at build time, so the server sends every request's
 * bytes from disk (@fastify/static `preCompressed`, apps/server/src/http/console.ts) instead of
 * compressing per request, and can afford brotli's best level.
 */
export function precompress(): Plugin {
  return {
    name: 'cumulus:precompress',
    apply: 'build',
    async writeBundle({ dir }, bundle) {
      if (!dir) return;
      await Promise.all(
        Object.keys(bundle)
          // Not the build manifest (.vite/): the bench reads it, no browser does.
          .filter((file) => COMPRESSIBLE.test(file) && !file.startsWith('.'))
          .map((file) => precompressFile(path.join(dir, file))),
      );
    },
  };
}
