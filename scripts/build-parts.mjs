// What `npm start` builds, and whether a part's build is older than its sources (make's rule:
// stale when a source file or folder changed after the build's output was written).
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** The parts of a start, in build order: sources (files or folders) and the output they make. */
export const PARTS = [
  {
    name: 'console',
    workspace: 'apps/web',
    output: 'apps/web/dist/index.html',
    sources: [
      'apps/web/src',
      'apps/web/bundling',
      'apps/web/index.html',
      'apps/web/vite.config.ts',
      'apps/web/tsconfig.json',
      'apps/web/package.json',
      'packages/api/src',
      'package-lock.json',
    ],
  },
  {
    name: 'server',
    workspace: 'apps/server',
    output: 'apps/server/dist/main.js',
    sources: [
      'apps/server/src',
      'apps/server/build.mjs',
      'apps/server/package.json',
      'tsconfig.base.json',
      'package-lock.json',
    ],
  },
];

/** The newest modification time (ms) among the sources under `root`; 0 when none exists. */
export function newestSource(root, sources) {
  let newest = 0;
  const visit = (file) => {
    let stat;
    try {
      stat = statSync(file);
    } catch {
      return;
    }
    // A folder's own time changes when a file in it is added, renamed or removed.
    newest = Math.max(newest, stat.mtimeMs);
    if (!stat.isDirectory()) return;
    for (const entry of readdirSync(file)) if (entry !== 'node_modules') visit(path.join(file, entry));
  };
  for (const source of sources) visit(path.join(root, source));
  return newest;
}

/**
 * Why `part` must be built before the server starts from `root`, or null when its output is
 * current. A tree without the sources (a release of built files) is current once built.
 */
export function staleness(root, part) {
  const output = path.join(root, part.output);
  if (!existsSync(output)) return 'not built yet';
  const newest = newestSource(root, part.sources);
  return newest > statSync(output).mtimeMs ? 'sources changed since the last build' : null;
}
