import pg from 'pg';

/** The channel the triggers of migration 0007 announce changes on, as `<table>:<id>`. */
export const CHANGES_CHANNEL = 'cumulus_changes';

/** A committed change to one row, or `null`: changes may have been missed, forget everything. */
export type Change = { table: string; id: string } | null;
export type ChangeListener = (change: Change) => void;

/**
 * Committed changes to the rows in-memory caches hold (see the migration for which), delivered
 * to every server sharing the database. Caches may answer only while `live`.
 *
 * A server's own writes are delivered before the statement that committed them returns: on
 * PostgreSQL every pooled connection listens too (PostgreSQL sends a session its own
 * notifications before it reports the commit done), and PGlite calls back within its query.
 */
export class ChangeFeed {
  private listeners = new Set<ChangeListener>();
  #live: boolean;

  constructor(live: boolean) {
    this.#live = live;
  }

  get live(): boolean {
    return this.#live;
  }

  subscribe(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A notification payload from the database. */
  receive(payload: string): void {
    const colon = payload.indexOf(':');
    if (colon <= 0) return;
    this.emit({ table: payload.slice(0, colon), id: payload.slice(colon + 1) });
  }

  /** Whether every change is being delivered; when that stops, caches drop what they hold. */
  setLive(live: boolean): void {
    if (live === this.#live) return;
    this.#live = live;
    this.emit(null);
  }

  private emit(change: Change): void {
    for (const listener of this.listeners) listener(change);
  }
}

/** The dedicated listener's application_name, as pg_stat_activity shows it. */
export const LISTENER_NAME = 'cumulus-changes';

/** How often the dedicated listener proves its connection alive, and how long it may take. */
const HEARTBEAT_MS = 1000;
const HEARTBEAT_TIMEOUT_MS = 2000;
const RECONNECT_MAX_MS = 30_000;

/**
 * The PostgreSQL side: every pooled connection listens (for this server's own writes; give
 * `onConnect` to the pool), and one dedicated connection that does nothing else listens for
 * everyone's; the feed is live while that connection is up and answers its heartbeat within
 * HEARTBEAT_TIMEOUT_MS.
 */
export function postgresChangeFeed(url: string): {
  feed: ChangeFeed;
  onConnect(client: pg.ClientBase): Promise<void>;
  close(): Promise<void>;
} {
  const feed = new ChangeFeed(false);
  const onNotification = (message: pg.Notification) => {
    if (message.channel === CHANGES_CHANNEL && message.payload) feed.receive(message.payload);
  };

  let closed = false;
  let client: pg.Client | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let retry: NodeJS.Timeout | undefined;
  let backoff = 250;

  const drop = async (dead: pg.Client): Promise<void> => {
    if (client !== dead) return;
    client = undefined;
    clearInterval(heartbeat);
    feed.setLive(false);
    dead.removeAllListeners('notification');
    if (!closed) {
      retry = setTimeout(connect, backoff);
      backoff = Math.min(backoff * 2, RECONNECT_MAX_MS);
    }
    await dead.end().catch(() => {});
  };

  const connect = async () => {
    const candidate = new pg.Client({
      connectionString: url,
      keepAlive: true,
      application_name: LISTENER_NAME,
    });
    client = candidate;
    candidate.on('error', () => void drop(candidate));
    candidate.on('end', () => void drop(candidate));
    candidate.on('notification', onNotification);
    try {
      await candidate.connect();
      await candidate.query(`LISTEN ${CHANGES_CHANNEL}`);
    } catch {
      return drop(candidate);
    }
    if (closed || client !== candidate) return;
    backoff = 250;
    feed.setLive(true);
    // One beat at a time: a slow answer (under its timeout) is waited for, not queued behind.
    let beating = false;
    heartbeat = setInterval(() => {
      if (beating) return;
      beating = true;
      const timeout = new Promise((_, reject) => setTimeout(reject, HEARTBEAT_TIMEOUT_MS).unref());
      Promise.race([candidate.query('select 1'), timeout])
        .catch(() => drop(candidate))
        .finally(() => {
          beating = false;
        });
    }, HEARTBEAT_MS);
    heartbeat.unref();
  };
  void connect();

  return {
    feed,
    async onConnect(pooled) {
      pooled.on('notification', onNotification);
      await pooled.query(`LISTEN ${CHANGES_CHANNEL}`);
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      if (client) await drop(client);
    },
  };
}
