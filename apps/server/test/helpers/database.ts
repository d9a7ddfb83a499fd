import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { inject } from 'vitest';
import { type Database, openDatabase } from '../../src/db/client.js';

/** The maintenance database of the server DATABASE_URL points at. */
function adminUrl(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  url.pathname = '/postgres';
  return url.toString();
}

async function admin<T>(databaseUrl: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl(databaseUrl) });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/**
 * A database of its own for one test server: an in-memory PGlite copied from the migrated one the
 * global setup made, or, with DATABASE_URL,
 * a PostgreSQL database copied from the (migrated) DATABASE_URL database and dropped on close.
 * Servers that share one database on purpose (replica tests) pass the same Database to both.
 * `timeZone` sets every session's TimeZone (PostgreSQL: the connection's options; PGlite: its one
 * session), as a server whose database is not on UTC would have it.
 */
export async function openTestDatabase(
  options: { timeZone?: string } = {},
): Promise<Database & { url?: string }> {
  const template = process.env.DATABASE_URL;
  if (!template) {
    const database = await openDatabase({ pgliteDir: 'memory://', pgliteTemplate: inject('pgliteTemplate') });
    if (options.timeZone)
      await database.db.execute(sql`select set_config('TimeZone', ${options.timeZone}, false)`);
    return database;
  }
  const templateName = new URL(template).pathname.slice(1);
  const name = `${templateName}_${randomBytes(4).toString('hex')}`;
  await admin(template, (c) => c.query(`create database "${name}" template "${templateName}"`));
  const url = new URL(template);
  url.pathname = `/${name}`;
  if (options.timeZone) url.searchParams.set('options', `-c TimeZone=${options.timeZone}`);
  const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 4 });
  return {
    ...database,
    url: url.toString(),
    async close() {
      await database.close();
      await admin(template, (c) => c.query(`drop database if exists "${name}" with (force)`));
    },
  };
}
