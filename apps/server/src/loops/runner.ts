/**
 * The control-loop runner. It knows no domain; each domain with a lifecycle (clusters today;
 * builds, batch jobs, metering and limits next) plugs into it with a `LoopDomain`.
 *
 * A domain provides:
 * - `rows`: its table and the loop columns on it (`loopColumns()` in db/schema/columns.ts, or its
 *   own names): when the row is next due (null: settled), the lease (owner, until), the failures in
 *   a row, the last error and since when it fails; optionally `where`, narrowing what may be claimed.
 * - `reconcile(id, context)`: brings one row towards what it should be and answers when to look
 *   again (a Date) or null once settled. It throws to fail; the runner backs off. It must be
 *   idempotent: after a crash, a lost lease or a failure the same work is done again.
 * - `backoff`: the first delay and the cap (delays double with each failure in a row), and how an
 *   error reads to users (`describeError`, else its message).
 *
 * The runner guarantees:
 * - At most one runner, among all replicas sharing the database, acts on a row at a time: due rows
 *   are claimed with `FOR UPDATE SKIP LOCKED` and leased to the runner, the lease is renewed while
 *   `reconcile` runs (a renewal that finds the lease taken aborts `context.signal`), and releasing
 *   touches only a row still leased to this runner.
 * - A replica that dies leaves leases that expire after `leaseMs`; another runner then claims the
 *   rows and reconciles them again.
 * - A failure is recorded on the row (attempts + 1, the reason, failing since) and the row is due
 *   again after `initialMs · 2^(attempts − 1)`, at most `capMs`; a success clears all three.
 * - A row made due while it was reconciled (a wake) keeps that due time, after success or failure.
 * - `wake()` claims at once; without wakes due rows are claimed every `intervalMs`. At most
 *   `concurrency` rows are in flight per runner.
 * - `stop()` claims nothing more, aborts the signals of in-flight work and waits for it; after
 *   `abandonAfterMs` it releases their leases (the rows stay due) and returns.
 *
 * Plugging in a domain: give its table `...loopColumns()`, write `reconcile`, and register
 * `{ name, rows: loopRows(table), reconcile, backoff }` with the server's loops (server.ts).
 */
import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.js';
import { randomHex } from '../lib/crypto.js';

export interface LoopRows {
  table: PgTable;
  id: AnyPgColumn;
  /** When the row is due; null: settled, nothing to do until something makes it due. */
  due: AnyPgColumn;
  leaseOwner: AnyPgColumn;
  leaseUntil: AnyPgColumn;
  /** Failures in a row (integer), the last one's reason (text), since when it fails (timestamptz). */
  attempts: AnyPgColumn;
  lastError: AnyPgColumn;
  failingSince?: AnyPgColumn;
  /** Only rows matching this are claimed. */
  where?: SQL;
}

/** The loop columns of a table made with `loopColumns()`. */
export function loopRows(
  table: PgTable & {
    id: AnyPgColumn;
    reconcileAt: AnyPgColumn;
    leaseOwner: AnyPgColumn;
    leaseUntil: AnyPgColumn;
    reconcileAttempts: AnyPgColumn;
    reconcileError: AnyPgColumn;
    reconcileFailingSince: AnyPgColumn;
  },
): LoopRows {
  return {
    table,
    id: table.id,
    due: table.reconcileAt,
    leaseOwner: table.leaseOwner,
    leaseUntil: table.leaseUntil,
    attempts: table.reconcileAttempts,
    lastError: table.reconcileError,
    failingSince: table.reconcileFailingSince,
  };
}

export interface ReconcileContext {
  /** Failures in a row before this attempt. */
  attempts: number;
  /** Aborted when the runner stops or loses the row's lease: wind down and return (or throw). */
  signal: AbortSignal;
}

export interface BackoffPolicy {
  initialMs: number;
  capMs: number;
  /** What users read about a failure (recorded on the row); the error's message by default. */
  describeError?(err: unknown): string;
}

export interface LoopDomain {
  /** Names the loop in logs and wakes. */
  name: string;
  rows: LoopRows;
  reconcile(id: number, context: ReconcileContext): Promise<Date | null>;
  backoff: BackoffPolicy;
  /** How often due rows are looked for without a wake. */
  intervalMs: number;
  /** How long a claim holds without renewal (renewed every third of it while work runs). */
  leaseMs?: number;
  /** Rows in flight at once. */
  concurrency?: number;
}

/** The delay before the next attempt after `attempts` failures in a row (attempts ≥ 1). */
export function backoffDelay(policy: BackoffPolicy, attempts: number): number {
  return Math.min(policy.capMs, policy.initialMs * 2 ** Math.max(0, attempts - 1));
}

const DEFAULT_LEASE_MS = 30_000;
const DEFAULT_CONCURRENCY = 8;
const MAX_ERROR_LENGTH = 2000;

interface Claimed {
  id: number;
  /** The due time as claimed, in the database's own text (exact to the microsecond). */
  due: string;
  attempts: number;
}

interface InFlight {
  controller: AbortController;
  done: Promise<void>;
}

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;
/** A column's bare name, as the SET list of an UPDATE wants it. */
const name = (column: AnyPgColumn) => sql.identifier(column.name);
const seconds = (ms: number) => sql`make_interval(secs => ${ms / 1000})`;

export class Runner {
  /** Who holds the leases this runner takes (unique per runner and process). */
  readonly owner = `${process.pid}-${randomHex(6)}`;
  readonly #leaseMs: number;
  readonly #concurrency: number;
  readonly #inFlight = new Map<number, InFlight>();
  #stopped = true;
  #timer: NodeJS.Timeout | undefined;
  #renewal: NodeJS.Timeout | undefined;
  #ticking: Promise<void> | undefined;
  #tickAgain = false;
  /** The last claim took every free slot: more rows may be due as soon as one frees. */
  #saturated = false;

  constructor(
    private readonly db: Db,
    readonly domain: LoopDomain,
    private readonly log: FastifyBaseLogger,
  ) {
    this.#leaseMs = domain.leaseMs ?? DEFAULT_LEASE_MS;
    this.#concurrency = domain.concurrency ?? DEFAULT_CONCURRENCY;
  }

  get name(): string {
    return this.domain.name;
  }

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#renewal = setInterval(() => void this.#renew(), Math.max(50, this.#leaseMs / 3));
    this.#renewal.unref?.();
    this.wake();
  }

  /** Looks for due rows now (in this process). */
  wake(): void {
    if (this.#stopped) return;
    if (this.#ticking) {
      this.#tickAgain = true;
      return;
    }
    clearTimeout(this.#timer);
    this.#ticking = this.#tick().finally(() => {
      this.#ticking = undefined;
      if (this.#stopped) return;
      if (this.#tickAgain) {
        this.#tickAgain = false;
        this.wake();
      } else {
        this.#timer = setTimeout(() => this.wake(), this.domain.intervalMs);
        this.#timer.unref?.();
      }
    });
  }

  /** Claims nothing more; waits for work in flight, or after `abandonAfterMs` releases its leases. */
  async stop(options: { abandonAfterMs?: number } = {}): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#ticking;
    for (const work of this.#inFlight.values()) work.controller.abort();
    const all = Promise.allSettled([...this.#inFlight.values()].map((w) => w.done));
    if (options.abandonAfterMs === undefined) await all;
    else {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), options.abandonAfterMs);
      });
      if ((await Promise.race([all, late])) === 'late') await this.#releaseAll();
      clearTimeout(timer);
    }
    clearInterval(this.#renewal);
  }

  async #tick(): Promise<void> {
    const free = this.#concurrency - this.#inFlight.size;
    if (free <= 0) return;
    let claimed: Claimed[];
    try {
      claimed = await this.#claim(free);
    } catch (err) {
      this.log.error({ err, loop: this.name }, 'loop claim failed');
      return;
    }
    this.#saturated = claimed.length === free;
    for (const row of claimed) this.#start(row);
  }

  #start(row: Claimed): void {
    const controller = new AbortController();
    const done = this.#work(row, controller.signal).then((dueNow) => {
      this.#inFlight.delete(row.id);
      if (dueNow || this.#saturated) this.wake();
    });
    this.#inFlight.set(row.id, { controller, done });
  }

  /** Reconciles a claimed row and releases it; answers whether it is due again already. */
  async #work(row: Claimed, signal: AbortSignal): Promise<boolean> {
    let next: Date | null;
    try {
      next = await this.domain.reconcile(row.id, { attempts: row.attempts, signal });
    } catch (err) {
      const reason = (this.domain.backoff.describeError?.(err) ?? messageOf(err)).slice(0, MAX_ERROR_LENGTH);
      const attempts = row.attempts + 1;
      this.log.warn({ err, loop: this.name, id: row.id, attempts }, `${this.name} reconcile failed`);
      return this.#release(row, {
        next: sql`now() + ${seconds(backoffDelay(this.domain.backoff, attempts))}`,
        failure: reason,
      });
    }
    return this.#release(row, { next: next ? sql`${next.toISOString()}::timestamptz` : sql`null` });
  }

  async #claim(limit: number): Promise<Claimed[]> {
    const r = this.domain.rows;
    const result = await this.db.execute(sql`
      update ${r.table} set ${name(r.leaseOwner)} = ${this.owner}, ${name(r.leaseUntil)} = now() + ${seconds(this.#leaseMs)}
      where ${r.id} in (
        select ${r.id} from ${r.table}
        where ${r.due} <= now() and (${r.leaseUntil} is null or ${r.leaseUntil} < now())
          ${r.where ? sql`and (${r.where})` : sql``}
        order by ${r.due} limit ${limit}
        for update skip locked
      )
      returning ${r.id} as id, ${r.due}::text as due, ${r.attempts} as attempts`);
    return rowsOf<{ id: number | string; due: string; attempts: number }>(result).map((x) => ({
      id: Number(x.id),
      due: x.due,
      attempts: Number(x.attempts),
    }));
  }

  /**
   * Gives the row back: due at `next` unless a wake made it due meanwhile (then it is claimed
   * again at once: the wake found it leased); records a failure or clears it. Answers whether the
   * row is due already.
   */
  async #release(row: Claimed, outcome: { next: SQL; failure?: string }): Promise<boolean> {
    const r = this.domain.rows;
    const failed = outcome.failure !== undefined;
    const record = failed
      ? sql`${name(r.attempts)} = ${r.attempts} + 1, ${name(r.lastError)} = ${outcome.failure}
          ${r.failingSince ? sql`, ${name(r.failingSince)} = coalesce(${r.failingSince}, now())` : sql``}`
      : sql`${name(r.attempts)} = 0, ${name(r.lastError)} = null
          ${r.failingSince ? sql`, ${name(r.failingSince)} = null` : sql``}`;
    const result = await this.db
      .execute(sql`
      update ${r.table} set ${name(r.leaseOwner)} = null, ${name(r.leaseUntil)} = null,
        ${name(r.due)} = case when ${r.due} > ${row.due}::timestamptz then ${r.due} else ${outcome.next} end,
        ${record}
      where ${r.id} = ${row.id} and ${r.leaseOwner} = ${this.owner}
      returning ${r.due} <= now() as due_now`)
      .catch((err) => {
        this.log.error({ err, loop: this.name, id: row.id }, 'loop release failed');
        return { rows: [] };
      });
    return rowsOf<{ due_now: boolean | null }>(result)[0]?.due_now === true;
  }

  /** Extends the leases of the work in flight; work whose lease was taken is told to stop. */
  async #renew(): Promise<void> {
    const ids = [...this.#inFlight.keys()];
    if (ids.length === 0) return;
    const r = this.domain.rows;
    try {
      const result = await this.db.execute(sql`
        update ${r.table} set ${name(r.leaseUntil)} = now() + ${seconds(this.#leaseMs)}
        where ${r.leaseOwner} = ${this.owner} and ${r.id} in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})
        returning ${r.id} as id`);
      const kept = new Set(rowsOf<{ id: number | string }>(result).map((x) => Number(x.id)));
      for (const id of ids) {
        const work = this.#inFlight.get(id);
        if (work && !kept.has(id)) {
          this.log.warn({ loop: this.name, id }, 'loop lease lost; abandoning the work');
          work.controller.abort();
        }
      }
    } catch (err) {
      this.log.error({ err, loop: this.name }, 'loop lease renewal failed');
    }
  }

  async #releaseAll(): Promise<void> {
    const r = this.domain.rows;
    await this.db
      .execute(sql`
        update ${r.table} set ${name(r.leaseOwner)} = null, ${name(r.leaseUntil)} = null
        where ${r.leaseOwner} = ${this.owner}`)
      .catch((err) => this.log.error({ err, loop: this.name }, 'loop lease release failed'));
  }
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));
