import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The console's layers (README "Where things are"): app/ composes features/, which build on
// components/, hooks/, data/ (server state) and lib/. Nothing below app/ reaches back up, or
// moving a page means untangling the shell. Features do not import one another either: what two
// features share lives in components/, hooks/, lib/ (or data/), so a feature can move or go alone.
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

/** The folders under src/ a specifier lands in (`@/app/paths` -> [app, paths]), or null outside src/. */
function segmentsOf(specifier: string, importer: string): string[] | null {
  let target: string;
  if (specifier.startsWith('@/')) target = join(SRC, specifier.slice(2));
  else if (specifier.startsWith('.')) target = resolve(dirname(importer), specifier);
  else return null;
  const path = relative(SRC, target);
  if (path.startsWith('..')) return null;
  return path.split(sep);
}

/** The top folder under src/ a specifier lands in (`@/app/paths` -> app), or null outside src/. */
function layerOf(specifier: string, importer: string): string | null {
  return segmentsOf(specifier, importer)?.[0] ?? null;
}

/** The feature a specifier lands in (`@/features/team/permissions` -> team), or null outside features/. */
function featureOf(specifier: string, importer: string): string | null {
  const segments = segmentsOf(specifier, importer);
  return segments?.[0] === 'features' ? (segments[1] ?? null) : null;
}

/** What one file (its path under src/ and its text) imports against the rules. */
function problemsOf(file: string, source: string): string[] {
  const [layer, feature] = relative(SRC, file).split(sep);
  const rule = RULES[layer!];
  if (!rule) return [];
  const found: string[] = [];
  for (const specifier of importsOf(source)) {
    const target = layerOf(specifier, file);
    if (target && rule.never.includes(target))
      found.push(`${relative(SRC, file)} imports ${specifier}: ${rule.why}`);
    const other = featureOf(specifier, file);
    if (layer === 'features' && other && other !== feature)
      found.push(
        `${relative(SRC, file)} imports ${specifier}: features/${feature}/ never imports features/${other}/ (share it from components/, hooks/ or lib/)`,
      );
  }
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

function violations() {
  return sourceFiles(SRC).flatMap((file) => problemsOf(file, readFileSync(file, 'utf8')));
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

  it('tells a feature importing another feature from one importing itself or the shared layers', () => {
    const importer = join(SRC, 'features', 'batch', 'job', 'JobPage.tsx');
    const source = [
      "import { clusterLink } from '@/features/clusters/links';",
      "import { TaskLogs } from '../../clusters/cluster/log-view';",
      "const page = () => import('@/features/team/TeamPage');",
      "import { jobLink } from '@/features/batch/links';",
      "import { JobHeader } from './job-header';",
      "import { Fact } from '@/components/fact';",
      "import { jobsQuery } from '@/lib/jobs/search-params';",
    ].join('\n');
    expect(problemsOf(importer, source).map((problem) => problem.split(':')[0])).toEqual([
      'features/batch/job/JobPage.tsx imports @/features/clusters/links',
      'features/batch/job/JobPage.tsx imports ../../clusters/cluster/log-view',
      'features/batch/job/JobPage.tsx imports @/features/team/TeamPage',
    ]);
    // app/ composes features: it may import any of them.
    expect(problemsOf(join(SRC, 'app', 'router.tsx'), source)).toEqual([]);
  });

  it('keeps each layer off the ones above it, and each feature off the others', () => {
    expect(violations()).toEqual([]);
  });
});
