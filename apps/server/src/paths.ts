import { fileURLToPath } from 'node:url';

/**
 * Where the server's files are, from this module: it sits one folder below apps/server both as
 * source (src/paths.ts, under tsx) and built (the bundle's files in dist/), so every path the
 * server reads from the checkout is resolved here and nowhere else.
 */
const fromServer = (relative: string) => fileURLToPath(new URL(`../${relative}`, import.meta.url));

/** apps/server/drizzle: the migrations. */
export const MIGRATIONS_DIR = fromServer('drizzle');
/** The repository's python/ directory (the agent, the client and the preloads). */
export const PYTHON_DIR = fromServer('../../python');
/** The built console (apps/web/dist), unless CUMULUS_WEB_DIST says otherwise. */
export const WEB_DIST_DIR = fromServer('../web/dist');
/** The repository's root: its package.json and docs/. */
export const REPOSITORY_DIR = fromServer('../..');
