import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { migratedPglite } from '../../scripts/migrated-pglite.mjs';
import { openDatabase } from '../../src/db/client.js';

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
  const pglite = await migratedPglite('memory://');
  const dir = mkdtempSync(path.join(tmpdir(), 'cumulus-pglite-template-'));
  try {
    const file = path.join(dir, 'migrated.tar');
    writeFileSync(file, new Uint8Array(await (await pglite.dumpDataDir('none')).arrayBuffer()));
    project.provide('pgliteTemplate', file);
  } finally {
    await pglite.close();
  }
  return () => rmSync(dir, { recursive: true, force: true });
}
