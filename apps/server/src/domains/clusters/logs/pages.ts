import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { instanceLogs, instances } from '../../../db/schema/index.js';
import { badRequest } from '../../../http/errors.js';
import type { SecretBox } from '../../../lib/crypto.js';
import { hours } from '../../../lib/time.js';
import type { LogPageRequest } from './schemas.js';
import { type LogFilters, logColumns, logConditions } from './service.js';

/**
 * Log page sessions: `POST logs/cluster/{pk}/page/` starts one with filters and answers its first
 * page; every answer carries `next`, an opaque session (filters and position, sealed with the
 * server secret) that `GET logs/cluster/{pk}/page/{session}` continues from, for older pages
 * and for lines that arrive later. The session names its cluster: access is checked on every call.
 */
const SESSION_TTL = hours(24);

interface Session {
  v: 1;
  cluster: number;
  filters: LogFilters;
  pageSize: number;
  /** The last line answered: [timestamp_ms, id]. */
  after: [number, number] | null;
  expires: number;
}

export const invalidSession = () =>
  badRequest('This log session is not valid: start a new one.', 'INVALID_LOG_SESSION');

export function openSession(box: SecretBox, sealed: string, clusterId: number): Session {
  let session: Session;
  try {
    session = JSON.parse(box.decrypt(sealed)) as Session;
  } catch {
    throw invalidSession();
  }
  if (session.v !== 1 || session.cluster !== clusterId) throw invalidSession();
  if (session.expires < Date.now())
    throw badRequest('This log session has expired: start a new one.', 'LOG_SESSION_EXPIRED');
  return session;
}

export function newSession(clusterId: number, request: LogPageRequest): Session {
  const { page_size, ...filters } = request;
  return {
    v: 1,
    cluster: clusterId,
    filters,
    pageSize: page_size,
    after: null,
    expires: Date.now() + SESSION_TTL,
  };
}

/** The page after the session's position, and the session that continues after it. */
export async function logPage(db: Db, box: SecretBox, session: Session) {
  const where = logConditions(session.cluster, session.filters);
  const rows = where
    ? await db
        .select({ id: instanceLogs.id, ...logColumns })
        .from(instanceLogs)
        .innerJoin(instances, eq(instances.id, instanceLogs.instanceId))
        .where(
          and(
            where,
            session.after
              ? sql`(${instanceLogs.timestampMs}, ${instanceLogs.id}) > (${session.after[0]}, ${session.after[1]})`
              : undefined,
          ),
        )
        .orderBy(asc(instanceLogs.timestampMs), asc(instanceLogs.id))
        .limit(session.pageSize + 1)
    : [];
  const page = rows.slice(0, session.pageSize);
  const last = page.at(-1);
  const next: Session = {
    ...session,
    after: last ? [last.timestamp, last.id] : session.after,
    expires: Date.now() + SESSION_TTL,
  };
  return {
    cluster_id: session.cluster,
    events: page.map(({ id: _id, ...row }) => row),
    has_more: rows.length > session.pageSize,
    next: box.encrypt(JSON.stringify(next)),
  };
}
