interface PgError {
  code?: string;
  constraint?: string;
  cause?: unknown;
}

/** The constraint a unique violation hit (drizzle wraps driver errors in `cause`), else null. */
export function uniqueViolation(err: unknown): string | null {
  let current: unknown = err;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const e = current as PgError;
    if (e.code === '23505') return e.constraint ?? 'unknown';
    current = e.cause;
  }
  return null;
}

/** Driver and server codes that mean the database cannot be reached now, not that a query is wrong. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** admin_shutdown, crash_shutdown, cannot_connect_now; class 08 is every connection exception. */
const UNAVAILABLE_SQLSTATES = /^(57P0[123]|08...)$/;
const UNAVAILABLE_MESSAGES =
  /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|terminating connection due to administrator command/i;

/** Whether the error (drizzle wraps driver errors in `cause`) says the database is unreachable. */
export function databaseUnavailable(err: unknown): boolean {
  let current: unknown = err;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const e = current as PgError & { message?: string };
    if (e.code && (UNAVAILABLE_CODES.has(e.code) || UNAVAILABLE_SQLSTATES.test(e.code))) return true;
    if (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.test(e.message)) return true;
    // AggregateError (a refused connection to every address of a host name).
    const inner = (current as { errors?: unknown[] }).errors;
    if (Array.isArray(inner) && inner.some(databaseUnavailable)) return true;
    current = e.cause;
  }
  return false;
}
