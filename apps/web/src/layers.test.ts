import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The console's layers (README "Where things are"): app/ composes features/, which build on
// components/, hooks/ and lib/. Nothing below app/ may reach back up, or moving a page means
// untangling the shell.
const RULES: Record<string, { never: string[]; why: string }> = {
  features: { never: ['app'], why: 'features import lib/ and components/, never app/' },
  components: { never: ['app'], why: 'shared components know no page or shell' },
  hooks: { never: ['app'], why: 'shared hooks know no page or shell' },
  lib: { never: ['app'], why: 'lib/ is the bottom layer' },
};

const SRC = dirname(fileURLToPath(import.meta.url));

/** Every module a file names: static imports and re-exports, dynamic `import()`, side-effect imports. */
function importsOf(source: string): string[] {
  const found: string[] = [];
  const patterns = [
    /\bfrom\s+['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
    /^\s*import\s+['"]([^'"]+)['"]/gm,
  ];
  for (const pattern of patterns) for (const match of source.matchAll(pattern)) found.push(match[1]!);
  return found;
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
  it('finds every kind of import, with @/ and relative paths', () => {
    const source = [
      "import { paths } from '@/app/paths';",
      "export { x } from '../../app/x';",
      "const page = () => import('@/app/shell/AppShell');",
      "import '@/app/styles';",
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
