import type { PgTable } from 'drizzle-orm/pg-core';
import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from './deps.js';
import type { AccessResolver } from './http/access.js';
import type { App } from './http/app-types.js';
import type { LoopDomain } from './loops/runner.js';

/**
 * The one face every domain shows the assembly (its index.ts exports one): app.ts registers every
 * domain's routes and installs every domain's access resolvers, server.ts starts every domain's
 * loops, and the boundaries test reads who owns which table, all from the list of modules
 * (modules.ts). Nothing is wired by hand a second time. The kernel knows no domain: `D` is what
 * the domain's routes and loops need of the app's deps.
 */
export interface DomainModule<D extends Deps = Deps> {
  /** Its folder under src/domains/. */
  name: string;
  /** Each registers some of the domain's routes; in this order the API document lists them. */
  routes: ReadonlyArray<(app: App, deps: D) => void>;
  /** Its control loops and housekeeping chores. */
  loops: ReadonlyArray<DomainLoop<D>>;
  /** What answers the route config keys it declares (http/access.ts), resolved in this order. */
  accessResolvers(deps: D): AccessResolver[];
  /** The tables it owns (by the name db/schema exports them): others read them through its face. */
  tables: Readonly<Record<string, PgTable>>;
}

/** What every loop of every domain is given. */
export interface LoopContext<D extends Deps = Deps> {
  deps: D;
  log: FastifyBaseLogger;
  /**
   * Since when the control plane has served without a gap (loops/serving.ts); null while it cannot
   * tell. Heartbeats are judged from then on only: its own downtime never counts against instances.
   */
  servingSince(): Date | null;
}

/**
 * A loop of a domain: rows the Runner claims (loops/runner.ts), woken by its name; a chore the
 * server's housekeeping does every 15 minutes; or work of its own on a period (loops/periodic.ts),
 * whose `run` answers whether there is more to do at once.
 */
export type DomainLoop<D extends Deps = Deps> =
  | { name: string; domain(ctx: LoopContext<D>): LoopDomain }
  | { chore: string; run(ctx: LoopContext<D>): Promise<unknown> }
  | { periodic: string; everyMs: number; run(ctx: LoopContext<D>): Promise<boolean> };

/** The loop names a domain's loops declare (what `Loops.wake` takes; see deps.ts `LoopNames`). */
export type LoopNamesOf<L extends ReadonlyArray<object>> = {
  [K in Extract<L[number], { name: string }>['name']]: true;
};
