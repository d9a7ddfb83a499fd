import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The console's layers (README "Where things are"): app/ composes features/, which build on
// components/, hooks/, data/ (server state) and lib/. Nothing below app/ reaches back up, or
// moving a page means untangling the shell.
const RULES: Record<string, { never: string[]; why: string }> = {
  features: { never: ['app'], why: 'features import data/, lib/ and components/, never app/' },
  components: { never: ['app', 'features'], why: 'shared components know no page or shell' },
  hooks: { never: ['app', 'features'], why: 'shared hooks know no page or shell' },
  data: { never: ['app', 'features', 'components'], why: 'data hooks read and write, they show nothing' },
  lib: { never: ['app', 'features'], why: 'lib/ knows no page or shell' },
};

const SRC = dirname(fileURLToPath(import.meta.url));

/** Every module a file names: imports, re-exports, dynamic `import()`; comments are not code. */
function importsOf(source: string): string[] {
  return ts.preProcessFile(source, true, true).importedFiles.map((file) => file.fileName);
}

/** The top folder under src/ a specifier lands in (`@/app/paths` -> app), or null outside src/. */
function layerOf(specifier: string, importer: string): string | null {
  let target: string;
  if (specifier.startsWith('@/')) target = join(SRC, specifier.slice(2));
  else if (specifier.startsWith('.')) target = resolve(dirname(importer), specifier);
  else return null;
  const path = relative(SRC, target);
  if (path.startsWith('..')) return null;
  return path.split(sep)[0] ?? null;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

function violations() {
  const found: string[] = [];
  for (const file of sourceFiles(SRC)) {
    const layer = relative(SRC, file).split(sep)[0]!;
    const rule = RULES[layer];
    if (!rule) continue;
    for (const specifier of importsOf(readFileSync(file, 'utf8'))) {
      const target = layerOf(specifier, file);
      if (target && rule.never.includes(target))
        found.push(`${relative(SRC, file)} imports ${specifier}: ${rule.why}`);
    }
  }
  return found;
}

describe('layers', () => {
  it('finds every kind of import, with @/ and relative paths, and none in comments', () => {
    const source = [
      "import { paths } from '@/app/paths';",
      "export { x } from '../../app/x';",
      "const page = () => import('@/app/shell/AppShell');",
      "import '@/app/styles';",
      "// import { router } from '@/app/router';",
    ].join('\n');
    const importer = join(SRC, 'features', 'team', 'TeamPage.tsx');
    expect(importsOf(source).map((specifier) => layerOf(specifier, importer))).toEqual([
      'app',
      'app',
      'app',
      'app',
    ]);
    expect(layerOf('react', importer)).toBeNull();
  });

  it('keeps each layer off the ones above it', () => {
    expect(violations()).toEqual([]);
  });
});
