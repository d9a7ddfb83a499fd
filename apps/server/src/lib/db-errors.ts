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
