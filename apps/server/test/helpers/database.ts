import { randomBytes } from 'node:crypto';
import pg from 'pg';
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
 * A database of its own for one test server: a fresh in-memory PGlite, or, with DATABASE_URL,
 * a PostgreSQL database copied from the (migrated) DATABASE_URL database and dropped on close.
 * Servers that share one database on purpose (replica tests) pass the same Database to both.
 */
export async function openTestDatabase(): Promise<Database & { url?: string }> {
  const template = process.env.DATABASE_URL;
  if (!template) return openDatabase({ pgliteDir: 'memory://' });
  const templateName = new URL(template).pathname.slice(1);
  const name = `${templateName}_${randomBytes(4).toString('hex')}`;
  await admin(template, (c) => c.query(`create database "${name}" template "${templateName}"`));
  const url = new URL(template);
  url.pathname = `/${name}`;
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
