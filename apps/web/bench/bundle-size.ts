// `npm run bench -w apps/web`: builds the console and reports the JavaScript a browser must load
// before the login page, and before the signed-in shell, can render (gzip, as served).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

type ManifestChunk = { file: string; imports?: string[]; css?: string[] };
type Manifest = Record<string, ManifestChunk>;

const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// What each screen needs on a first visit: the entry, then the lazy route modules on its way.
const SCREENS = {
  'login page': ['src/features/auth/LoginPage.tsx'],
  'signed-in shell (Get Started)': [
    'src/app/shell/AppShell.tsx',
    'src/features/get-started/GetStartedPage.tsx',
  ],
} as const;

/** The files of `keys` and of everything they import statically (not their lazy imports). */
function closure(manifest: Manifest, keys: string[]): Set<string> {
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the build manifest`);
    if (files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of keys) visit(key);
  return files;
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

const outDir = mkdtempSync(path.join(tmpdir(), 'cumulus-bundle-'));
try {
  execFileSync(
    'npx',
    ['vite', 'build', '--manifest', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'],
    {
      cwd: webDir,
      stdio: 'inherit',
    },
  );
  const manifest = JSON.parse(readFileSync(path.join(outDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  const size = (file: string) => {
    const bytes = readFileSync(path.join(outDir, file));
    return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  };

  console.log('\nInitial JavaScript of the console (entry chunk + the chunks each screen needs):');
  for (const [screen, modules] of Object.entries(SCREENS)) {
    const files = [...closure(manifest, ['index.html', ...modules])].filter((file) => file.endsWith('.js'));
    const total = files.map(size).reduce((sum, s) => ({ raw: sum.raw + s.raw, gzip: sum.gzip + s.gzip }), {
      raw: 0,
      gzip: 0,
    });
    console.log(
      `  ${screen.padEnd(32)} ${kib(total.gzip).padStart(10)} gzip  (${kib(total.raw)} raw, ${files.length} files)`,
    );
  }
  const allJs = Object.values(manifest)
    .map((chunk) => chunk.file)
    .filter((file, index, list) => file.endsWith('.js') && list.indexOf(file) === index);
  const everything = allJs.map(size).reduce((sum, s) => sum + s.gzip, 0);
  console.log(
    `  ${'whole console (every chunk)'.padEnd(32)} ${kib(everything).padStart(10)} gzip  (${allJs.length} chunks)`,
  );
} finally {
  rmSync(outDir, { recursive: true, force: true });
}
