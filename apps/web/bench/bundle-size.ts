// The JavaScript a browser must load before a screen can render: the entry chunk, what it imports
// statically, then the lazy route modules on the screen's way (gzip level 9, as precompressed).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

import type { BuiltChunk } from './build';

// What each screen needs on a first visit: the entry, then the lazy route modules on its way.
export const SCREENS = {
  'login page': ['src/features/auth/LoginPage.tsx'],
  'signed-in shell (Get Started)': [
    'src/app/shell/AppShell.tsx',
    'src/features/get-started/GetStartedPage.tsx',
  ],
  'signed-in shell (Dashboard)': [
    'src/app/shell/AppShell.tsx',
    'src/features/clusters/dashboard/ClustersPage.tsx',
  ],
} as const;
export type Screen = keyof typeof SCREENS;

/** The entry's files and those `modules` need, with everything they import statically (not lazily). */
function closure(chunks: BuiltChunk[], modules: readonly string[]): Set<string> {
  const byFile = new Map(chunks.map((chunk) => [chunk.file, chunk]));
  const files = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const imported of byFile.get(file)?.imports ?? []) visit(imported);
  };
  for (const chunk of chunks) if (chunk.isEntry) visit(chunk.file);
  for (const module of modules) {
    const holder = chunks.find((chunk) => chunk.modules.includes(module));
    if (!holder) throw new Error(`${module} is in no chunk of the build`);
    visit(holder.file);
  }
  return files;
}

export type Size = { raw: number; gzip: number; files: number };

export const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

/** Raw and gzip size of built files (paths relative to `outDir`). */
export function sizeOf(outDir: string, files: Iterable<string>): Size {
  const total = { raw: 0, gzip: 0, files: 0 };
  for (const file of files) {
    const bytes = readFileSync(path.join(outDir, file));
    total.raw += bytes.length;
    total.gzip += gzipSync(bytes, { level: 9 }).length;
    total.files += 1;
  }
  return total;
}

/** The initial JavaScript of each screen, and of the whole console; printed, and returned. */
export function reportBundleSize(outDir: string, chunks: BuiltChunk[]): Record<Screen, Size> {
  const result = {} as Record<Screen, Size>;
  console.log('\nInitial JavaScript of the console (entry chunk + the chunks each screen needs):');
  for (const [screen, modules] of Object.entries(SCREENS) as [Screen, readonly string[]][]) {
    const files = [...closure(chunks, modules)];
    const total = sizeOf(outDir, files);
    result[screen] = total;
    console.log(
      `  ${screen.padEnd(32)} ${kib(total.gzip).padStart(10)} gzip  (${kib(total.raw)} raw, ${total.files} files)`,
    );
  }
  const allJs = new Set(chunks.map((chunk) => chunk.file));
  const everything = sizeOf(outDir, allJs);
  console.log(
    `  ${'whole console (every chunk)'.padEnd(32)} ${kib(everything.gzip).padStart(10)} gzip  (${allJs.size} chunks)`,
  );
  return result;
}
