import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { MIGRATIONS_DIR } from '../paths.js';
import { CHANGES_CHANNEL, ChangeFeed, postgresChangeFeed } from './changes.js';
import { PgliteThread } from './pglite-thread.js';
import * as schema from './schema/index.js';

export type Schema = typeof schema;
/** The common surface of both drivers; a transaction is also a Db. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  /** What console and API requests and the control loops use. */
  db: Db;
  /**
   * What instances' calls (cluster-facing routes) use: on PostgreSQL a pool of its own, so that
   * thousands of agents never hold every connection a console request or a loop waits for; on
   * embedded PGlite (one connection) the same as `db`.
   */
  agentDb: Db;
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
  /**
   * An archive of an embedded database's data directory (PGlite's dumpDataDir) a new one starts as a copy
   * of: tests start each server's database from one migrated template instead of initdb and migrations.
   */
  pgliteTemplate?: string | undefined;
  /** PostgreSQL connections of `db` (console, API, loops). */
  poolSize?: number;
  /** PostgreSQL connections of `agentDb` (instances' calls). */
  agentPoolSize?: number;
}

export const DEFAULT_POOL_SIZE = 10;
export const DEFAULT_AGENT_POOL_SIZE = 5;

export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.databaseUrl)
    return openPostgres(
      options.databaseUrl,
      options.poolSize ?? DEFAULT_POOL_SIZE,
      options.agentPoolSize ?? DEFAULT_AGENT_POOL_SIZE,
    );
  return openPglite(options.pgliteDir ?? 'memory://', options.pgliteTemplate);
}

/**
 * A connection answers one statement at a time. Code handed a transaction may still ask several
 * things at once (a read helper's `Promise.all`, written for the pool): the connection's queries
 * wait for each other here, in order, as pg 8 does internally with a deprecation warning and pg 9
 * will refuse to.
 */
function oneQueryAtATime(client: pg.ClientBase): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  let last: Promise<unknown> = Promise.resolve();
  client.query = ((...args: unknown[]) => {
    // Callback and submittable (cursor, stream) calls keep pg's own handling.
    const first = args[0] as { submit?: unknown } | undefined;
    if (typeof args.at(-1) === 'function' || typeof first?.submit === 'function') return query(...args);
    const run = last.then(() => query(...args));
    last = run.catch(() => undefined);
    return run;
  }) as typeof client.query;
}

async function openPostgres(url: string, max: number, agentMax: number): Promise<Database> {
  const changes = postgresChangeFeed(url);
  // Connections are opened when first needed: a pool nobody uses costs none.
  const open = (size: number) => {
    const p = new pg.Pool({
      connectionString: url,
      max: size,
      onConnect: (client) => {
        oneQueryAtATime(client);
        return changes.onConnect(client);
      },
    });
    // An idle client dropped by the server must not crash the process.
    p.on('error', () => {});
    return p;
  };
  const pool = open(max);
  const agentPool = open(agentMax);
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return {
    db,
    agentDb: drizzlePg(agentPool, { schema }) as unknown as Db,
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
      await Promise.all([pool.end(), agentPool.end()]);
    },
  };
}

async function openPglite(dir: string, template?: string): Promise<Database> {
  if (!dir.startsWith('memory://')) mkdirSync(path.dirname(dir), { recursive: true });
  // In a worker thread of its own (pglite-thread.ts): its queries do not hold up serving.
  const client = await PgliteThread.create(dir, {
    // A commit returns once its WAL is written to the data directory (the operating system holds
    // it from then on): an answered write survives the process being killed. Said here so that no
    // postgresql.conf in the data directory can turn it off; PGlite's filesystem cannot fsync, so
    // surviving a power loss is PostgreSQL's (DATABASE_URL).
    startParams: [...PGlite.defaultStartParams, '-c', 'synchronous_commit=on'],
    relaxedDurability: false,
    loadDataDir: template,
  });
  // drizzle's PGlite driver calls `query` and `transaction`, which the thread's client answers.
  const pgliteDb = drizzlePglite(client as unknown as PGlite, { schema });
  // One process, one connection: notifications arrive before the query that caused them returns.
  const changes = new ChangeFeed(true);
  await client.listen(CHANGES_CHANNEL, (payload) => changes.receive(payload));
  return {
    db: pgliteDb as unknown as Db,
    agentDb: pgliteDb as unknown as Db,
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
