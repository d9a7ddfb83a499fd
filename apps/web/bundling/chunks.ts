// How the console's JavaScript is cut into files (rolldown's `output.codeSplitting`). Left to
// itself the bundler makes a chunk for every set of lazy pages sharing a module: the signed-in
// Dashboard then took 104 files. Here a first visit takes a handful:
//   the entry and `boot` (its modules: router, API client) + framework (React, React Router,
//   TanStack Query) + ui (Radix and its helpers) + icons + landing (the signed-in shell with the
//   Dashboard and Get Started, where a sign-in lands) + common (what those share with login).
// Login and signup share `public`; zod and react-hook-form are `forms`, loaded by pages with one.
// Every other page stays its own lazy chunk, importing these.

/** What rolldown tells a naming function about the module graph. */
type Graph = { getModuleInfo(id: string): { importedIds: readonly string[] } | null };

const vendor = (names: string) => new RegExp(`[\\\\/]node_modules[\\\\/](${names})[\\\\/]`);
const FRAMEWORK = vendor('react|react-dom|scheduler|react-router|@tanstack[\\\\/][^\\\\/]+|openapi-fetch');
const FORMS = vendor('zod|react-hook-form|@hookform[\\\\/]resolvers');
const UI = vendor(
  [
    '@radix-ui[\\\\/][^\\\\/]+',
    'radix-ui',
    '@floating-ui[\\\\/][^\\\\/]+',
    'react-remove-scroll',
    'react-remove-scroll-bar',
    'react-style-singleton',
    'aria-hidden',
    'use-callback-ref',
    'use-sidecar',
    'detect-node-es',
    'get-nonce',
    'tslib',
    'class-variance-authority',
    'clsx',
    'tailwind-merge',
  ].join('|'),
);

/** Where the pages a signed-in first visit needs begin (paths under src/). */
const LANDING = [
  'app/shell/AppShell.tsx',
  'features/clusters/dashboard/ClustersPage.tsx',
  'features/get-started/GetStartedPage.tsx',
];
/** The public front doors. */
const PUBLIC = ['features/auth/LoginPage.tsx', 'features/auth/SignupPage.tsx'];

/** `srcDir`'s modules reachable from `roots` by static imports (not lazy ones), within src/. */
function reach(graph: Graph, srcDir: string, roots: string[]): Set<string> {
  const seen = new Set<string>();
  const stack = roots.map((root) => `${srcDir}/${root}`);
  for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
    if (seen.has(id) || !id.startsWith(`${srcDir}/`)) continue;
    seen.add(id);
    stack.push(...(graph.getModuleInfo(id)?.importedIds ?? []));
  }
  return seen;
}

/** The `output.codeSplitting` option for the console whose sources are in `srcDir`. */
export function consoleChunks(srcDir: string) {
  let reached: { entry: Set<string>; landing: Set<string>; front: Set<string> } | undefined;
  const reachedBy = (graph: Graph) =>
    (reached ??= {
      entry: reach(graph, srcDir, ['main.tsx']),
      landing: reach(graph, srcDir, LANDING),
      front: reach(graph, srcDir, PUBLIC),
    });
  // A group of src/ modules; each group also takes the modules they import that no group of a
  // higher priority took, so the entry's own modules are a group first (`boot`), or the landing
  // group would take those it imports.
  const app = (
    name: string,
    priority: number,
    member: (id: string, sets: NonNullable<typeof reached>) => boolean,
  ) => ({
    name: (id: string, graph: Graph) => (member(id, reachedBy(graph)) ? name : null),
    debugName: name,
    test: (id: string) => id.startsWith(`${srcDir}/`),
    priority,
  });
  return {
    groups: [
      { name: 'framework', test: FRAMEWORK, priority: 50 },
      { name: 'forms', test: FORMS, priority: 40 },
      { name: 'ui', test: UI, priority: 30 },
      // Every icon the console draws (about 9 KiB gzip): one file, not one per set of pages.
      { name: 'icons', test: vendor('lucide-react'), priority: 30 },
      app('boot', 25, (id, { entry }) => entry.has(id)),
      app('common', 20, (id, { landing, front }) => landing.has(id) && front.has(id)),
      app('landing', 15, (id, { landing }) => landing.has(id)),
      app('public', 10, (id, { front }) => front.has(id)),
    ],
  };
}
