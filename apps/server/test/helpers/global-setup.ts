import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/db/client.js';
import { MIGRATIONS_DIR } from '../../src/paths.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated embedded database every test server's own copy starts from (see openTestDatabase). */
    pgliteTemplate: string | undefined;
  }
}

/**
 * The database test servers copy, migrated once: with PostgreSQL, DATABASE_URL's database (each
 * test server's is created from it as a template); embedded, an archive of a migrated PGlite data
 * directory (a copy starts in about a second; initdb and the migrations take about five).
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) {
    const database = await openDatabase({ databaseUrl, poolSize: 2 });
    try {
      await database.migrate();
    } finally {
      await database.close();
    }
    return () => {};
  }
  // Here, not in the thread openDatabase runs PGlite in: this module runner cannot resolve its modules.
  const pglite = await PGlite.create('memory://', { extensions: { pg_trgm } });
  const dir = mkdtempSync(path.join(tmpdir(), 'cumulus-pglite-template-'));
  try {
    await migrate(drizzle(pglite), { migrationsFolder: MIGRATIONS_DIR });
    const file = path.join(dir, 'migrated.tar');
    writeFileSync(file, new Uint8Array(await (await pglite.dumpDataDir('none')).arrayBuffer()));
    project.provide('pgliteTemplate', file);
  } finally {
    await pglite.close();
  }
  return () => rmSync(dir, { recursive: true, force: true });
}
