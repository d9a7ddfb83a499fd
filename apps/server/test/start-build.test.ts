import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Part, staleness } from '../../../scripts/build-parts.mjs';

/** `npm start` builds a part only when its sources changed after its output was written. */
const PART: Part = {
  name: 'server',
  workspace: 'app',
  output: 'app/dist/main.js',
  sources: ['app/src', 'lock'],
};
const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A tree with a source file and a lockfile at `sourceAt`, and (unless null) the output at `builtAt` (s). */
function tree(sourceAt: number, builtAt: number | null): string {
  const root = mkdtempSync(path.join(tmpdir(), 'cumulus-start-'));
  roots.push(root);
  const file = (p: string, at: number) => {
    mkdirSync(path.dirname(path.join(root, p)), { recursive: true });
    writeFileSync(path.join(root, p), p);
    utimesSync(path.join(root, p), at, at);
  };
  file('app/src/main.ts', sourceAt);
  file('lock', sourceAt);
  utimesSync(path.join(root, 'app/src'), sourceAt, sourceAt);
  if (builtAt !== null) file('app/dist/main.js', builtAt);
  return root;
}

describe('the build npm start makes', () => {
  it('is made when there is no output yet', () => {
    expect(staleness(tree(1000, null), PART)).toBe('not built yet');
  });

  it('is current when the output is newer than every source', () => {
    expect(staleness(tree(1000, 2000), PART)).toBeNull();
  });

  it('is made again when a source file changed after the build', () => {
    const root = tree(1000, 2000);
    utimesSync(path.join(root, 'app/src/main.ts'), 3000, 3000);
    expect(staleness(root, PART)).toBe('sources changed since the last build');
  });

  it('is made again when a source file was added or removed (its folder changed)', () => {
    const root = tree(1000, 2000);
    utimesSync(path.join(root, 'app/src'), 3000, 3000);
    expect(staleness(root, PART)).toBe('sources changed since the last build');
  });

  it('is made again when the lockfile changed (new dependencies)', () => {
    const root = tree(1000, 2000);
    utimesSync(path.join(root, 'lock'), 3000, 3000);
    expect(staleness(root, PART)).not.toBeNull();
  });

  it('is current in a release that ships the built files without their sources', () => {
    const root = tree(1000, 2000);
    rmSync(path.join(root, 'app/src'), { recursive: true });
    rmSync(path.join(root, 'lock'));
    expect(staleness(root, PART)).toBeNull();
  });
});
