import { and, count, desc, eq, gte, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import { clientInteractions } from '../../db/schema/index.js';
import { type OffsetQuery, paginate } from '../../http/pagination.js';
import type { z } from '../../http/zod.js';
import { contains, startsWith } from '../../lib/sql.js';
import { isoTime } from '../../lib/time.js';
import { organizationView, userView, workspaceView } from '../identity/index.js';
import {
  USER_INTERACTION_KEYS,
  type userInteractionSchema,
  type userInteractionsQuery,
  type userInteractionValuesQuery,
} from './schemas.js';

// What staff read of what users did (`interactions/user-interactions*`): the reports of the Python
// client and the console (`interactions/interaction`), with who, where and how it went.

type Filters = z.infer<typeof userInteractionsQuery>;
const DAY = 24 * 60 * 60 * 1000;
const isNumber = (v: string) => /^\d{1,10}$/.test(v);
const lower = (column: AnyPgColumn, v: string) => sql`lower(${column}) = ${v.toLowerCase()}`;

function whereOf(f: Filters): SQL | undefined {
  const n = (v: string) => Number(v);
  return and(
    f.account === undefined
      ? undefined
      : or(
          eq(workspaceView.slug, f.account),
          isNumber(f.account) ? eq(workspaceView.id, n(f.account)) : undefined,
        ),
    f.organization === undefined
      ? undefined
      : isNumber(f.organization)
        ? eq(organizationView.id, n(f.organization))
        : lower(organizationView.name, f.organization),
    f.user === undefined
      ? undefined
      : isNumber(f.user)
        ? eq(userView.id, n(f.user))
        : f.user.includes('@')
          ? lower(userView.email, f.user)
          : eq(userView.username, f.user),
    f.timestamp === undefined ? undefined : gte(clientInteractions.created, new Date(f.timestamp)),
    f.action === undefined ? undefined : eq(clientInteractions.action, f.action),
    f.version === undefined ? undefined : eq(clientInteractions.version, f.version),
    f.source === undefined ? undefined : eq(clientInteractions.source, f.source),
    f.success === undefined ? undefined : eq(clientInteractions.success, f.success),
    f.error_message === undefined ? undefined : contains(clientInteractions.errorMessage, f.error_message),
    f.error_class === undefined ? undefined : eq(clientInteractions.errorClass, f.error_class),
    f.is_staff === undefined ? undefined : eq(userView.isStaff, f.is_staff),
  );
}

/** `GET interactions/user-interactions`: newest first, `{items, count}`. */
export async function listUserInteractions(db: Db, query: Filters & OffsetQuery) {
  const where = whereOf(query);
  const rows = db
    .select({
      row: clientInteractions,
      user: {
        id: userView.id,
        username: userView.username,
        email: userView.email,
        isStaff: userView.isStaff,
      },
      account: { id: workspaceView.id, slug: workspaceView.slug, name: workspaceView.name },
      organization: { id: organizationView.id, name: organizationView.name },
    })
    .from(clientInteractions)
    .leftJoin(userView, eq(userView.id, clientInteractions.userId))
    .leftJoin(workspaceView, eq(workspaceView.id, clientInteractions.workspaceId))
    .leftJoin(organizationView, eq(organizationView.id, workspaceView.organizationId))
    .where(where)
    .orderBy(desc(clientInteractions.created), desc(clientInteractions.id));
  const total = db
    .select({ n: count() })
    .from(clientInteractions)
    .leftJoin(userView, eq(userView.id, clientInteractions.userId))
    .leftJoin(workspaceView, eq(workspaceView.id, clientInteractions.workspaceId))
    .leftJoin(organizationView, eq(organizationView.id, workspaceView.organizationId))
    .where(where)
    .then((r) => r[0]?.n ?? 0);
  const page = await paginate(query, rows, total);
  const items: z.infer<typeof userInteractionSchema>[] = page.rows.map(
    ({ row, user, account, organization }) => ({
      id: row.id,
      timestamp: isoTime(row.created),
      action: row.action,
      version: row.version,
      success: row.success,
      source: row.source,
      client_version: row.clientVersion,
      error_message: row.errorMessage,
      error_class: row.errorClass,
      additional_text: row.additionalText,
      additional_data: row.additionalData ?? null,
      user: user ? { id: user.id, username: user.username, email: user.email, is_staff: user.isStaff } : null,
      account,
      organization,
    }),
  );
  return { items, count: page.count };
}

/** `.../keys?query=`: the filters this list takes, those starting with the text. */
export function userInteractionKeys(query: string) {
  const items = USER_INTERACTION_KEYS.filter((key) => key.startsWith(query.toLowerCase()));
  return { items, count: items.length };
}

const VALUE_COLUMNS = {
  account: workspaceView.slug,
  organization: organizationView.name,
  user: userView.username,
  action: clientInteractions.action,
  source: clientInteractions.source,
  error_class: clientInteractions.errorClass,
} as const;

/** `.../key/values?key=&starts_with=`: the values a filter takes among recorded interactions. */
export async function userInteractionValues(db: Db, query: z.infer<typeof userInteractionValuesQuery>) {
  const column =
    query.key === 'version' ? sql<string>`${clientInteractions.version}::text` : VALUE_COLUMNS[query.key];
  const found = await db
    .selectDistinct({ value: column })
    .from(clientInteractions)
    .leftJoin(userView, eq(userView.id, clientInteractions.userId))
    .leftJoin(workspaceView, eq(workspaceView.id, clientInteractions.workspaceId))
    .leftJoin(organizationView, eq(organizationView.id, workspaceView.organizationId))
    .where(
      and(
        sql`${column} is not null`,
        query.starts_with
          ? query.key === 'version'
            ? sql`${column} like ${`${query.starts_with.replace(/\D/g, '')}%`}`
            : startsWith(column as AnyPgColumn, query.starts_with)
          : undefined,
      ),
    )
    .orderBy(column)
    .limit(query.limit);
  const items = found.map((r) => String(r.value));
  return { items, count: items.length };
}

/** `.../hello`: that the list answers, with how much it holds and how recent it is. */
export async function userInteractionsHello(db: Db, username: string) {
  const since = new Date(Date.now() - DAY);
  const [row] = await db
    .select({
      total: count(),
      lastDay: sql<number>`count(*) filter (where ${clientInteractions.created} >= ${since})`.mapWith(Number),
      failures:
        sql<number>`count(*) filter (where ${clientInteractions.created} >= ${since} and ${clientInteractions.success} = false)`.mapWith(
          Number,
        ),
      latest: sql<Date | null>`max(${clientInteractions.created})`.mapWith(clientInteractions.created),
    })
    .from(clientInteractions);
  return {
    detail: `Hello, ${username}.`,
    total: row?.total ?? 0,
    last_day: row?.lastDay ?? 0,
    failures_last_day: row?.failures ?? 0,
    latest: row?.latest ? isoTime(row.latest) : null,
  };
}
