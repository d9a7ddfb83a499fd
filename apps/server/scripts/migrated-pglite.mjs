// Writes a migrated embedded database (a PGlite data directory, as the server keeps it in
// <data dir>/pgdata) to the directory named: test servers that start on a fresh data directory
// (the browser and Python suites) copy it instead of running initdb and every migration, about
// five seconds each. Usage: node apps/server/scripts/migrated-pglite.mjs <directory>
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';

const MIGRATIONS_DIR = fileURLToPath(new URL('../drizzle', import.meta.url));

/**
 * PGlite open on `dataDir` (a directory, or `memory://`) with every migration applied, and the
 * extensions the server opens its database with (src/db/pglite-thread.ts).
 */
export async function migratedPglite(dataDir) {
  const database = await PGlite.create(dataDir, { extensions: { pg_trgm } });
  try {
    await migrate(drizzle(database), { migrationsFolder: MIGRATIONS_DIR });
    return database;
  } catch (error) {
    await database.close();
    throw error;
  }
}

/** Creates `directory` as a PGlite data directory with every migration applied. */
export async function writeMigratedPglite(directory) {
  if (existsSync(directory)) throw new Error(`${directory} exists already`);
  await (await migratedPglite(directory)).close();
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [directory] = process.argv.slice(2);
  if (!directory) {
    console.error('usage: node migrated-pglite.mjs <directory>');
    process.exit(2);
  }
  await writeMigratedPglite(directory);
}
