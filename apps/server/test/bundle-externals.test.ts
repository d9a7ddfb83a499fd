import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The server is bundled by esbuild (build.mjs), but packages loaded on first use
 * (compute/on-first-use.ts) are required from node_modules at run time: each must be kept outside
 * the bundle, or the bundle carries it and its start-up cost after all, and breaks on packages that
 * read files of their own beside their code (google-gax's .proto files, through `__dirname`, which
 * an ES module bundle does not have).
 */
const root = path.resolve(import.meta.dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sources(path.join(dir, e.name))
      : e.name.endsWith('.ts')
        ? [path.join(dir, e.name)]
        : [],
  );
}

const externals = [...readFileSync(path.join(root, 'build.mjs'), 'utf8').matchAll(/^\s+'([^']+)',/gm)].map(
  (m) => m[1]!,
);
const kept = (name: string) =>
  externals.some((e) => (e.endsWith('/*') ? name.startsWith(e.slice(0, -1)) : name === e));

describe('the bundle', () => {
  it('keeps outside every package the server loads on first use', () => {
    const lazy = sources(path.join(root, 'src')).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/onFirstUse<[^>]*>\('([^']+)'\)/g)].map((m) => m[1]!),
    );
    expect(lazy).toEqual(expect.arrayContaining(['@aws-sdk/client-ec2', '@google-cloud/compute']));
    expect(lazy.filter((name) => !kept(name))).toEqual([]);
  });

  it('imports no package that loads on first use at start (only its types)', () => {
    const lazy = new Set(
      sources(path.join(root, 'src')).flatMap((file) =>
        [...readFileSync(file, 'utf8').matchAll(/onFirstUse<[^>]*>\('([^']+)'\)/g)].map((m) => m[1]!),
      ),
    );
    const eager = sources(path.join(root, 'src')).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/^import (?!type )[^;]*? from '([^']+)';/gms)]
        .map((m) => m[1]!)
        .filter((name) => lazy.has(name))
        .map((name) => `${path.relative(root, file)}: ${name}`),
    );
    expect(eager).toEqual([]);
  });
});
