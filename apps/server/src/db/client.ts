import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { MIGRATIONS_DIR } from '../paths.js';
import { CHANGES_CHANNEL, ChangeFeed, postgresChangeFeed } from './changes.js';
import * as schema from './schema/index.js';

export type Schema = typeof schema;
/** The common surface of both drivers; a transaction is also a Db. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Committed changes to cached rows, from every server sharing the database. */
  changes: ChangeFeed;
  migrate(): Promise<void>;
  close(): Promise<void>;
}

const migrationsFolder = MIGRATIONS_DIR;

// Serialises migrations across server replicas sharing one PostgreSQL.
const MIGRATION_LOCK = 7_302_118_551;

export interface OpenOptions {
  databaseUrl?: string | undefined;
  /** Directory for the embedded database, or `memory://` for a throwaway one. */
  pgliteDir?: string;
  poolSize?: number;
}

export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.poolSize ?? 10);
  return openPglite(options.pgliteDir ?? 'memory://');
}

async function openPostgres(url: string, max: number): Promise<Database> {
  const changes = postgresChangeFeed(url);
  const pool = new pg.Pool({ connectionString: url, max, onConnect: changes.onConnect });
  // An idle client dropped by the server must not crash the process.
  pool.on('error', () => {});
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    changes: changes.feed,
    async migrate() {
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
        await migratePg(drizzlePg(client, { schema }), { migrationsFolder });
      } finally {
        await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
        client.release();
      }
    },
    async close() {
      await changes.close();
      await pool.end();
    },
  };
}

async function openPglite(dir: string): Promise<Database> {
  if (!dir.startsWith('memory://')) mkdirSync(path.dirname(dir), { recursive: true });
  // The extensions migrations create (PostgreSQL ships them in contrib).
  const client = await PGlite.create(dir, {
    extensions: { pg_trgm },
    // A commit returns once its WAL is written to the data directory (the operating system holds
    // it from then on): an answered write survives the process being killed. Said here so that no
    // postgresql.conf in the data directory can turn it off; PGlite's filesystem cannot fsync, so
    // surviving a power loss is PostgreSQL's (DATABASE_URL).
    startParams: [...PGlite.defaultStartParams, '-c', 'synchronous_commit=on'],
    relaxedDurability: false,
  });
  const pgliteDb = drizzlePglite(client, { schema });
  // One process, one connection: notifications are delivered within the query that caused them.
  const changes = new ChangeFeed(true);
  await client.listen(CHANGES_CHANNEL, (payload) => changes.receive(payload));
  return {
    db: pgliteDb as unknown as Db,
    kind: 'pglite',
    changes,
    migrate: () => migratePglite(pgliteDb, { migrationsFolder }),
    close: () => client.close(),
  };
}

export async function pingDatabase(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}
