import { and, desc, eq, gte, inArray, lt, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { billingEvents, type User } from '../../../db/schema/index.js';
import { type OffsetQuery, type PageQuery, paginate } from '../../../http/pagination.js';
import { startsWith } from '../../../lib/sql.js';
import { isoTime } from '../../../lib/time.js';
import { clusterView } from '../../clusters/index.js';
import {
  administeredOrganizationIds,
  organizationView,
  userView,
  workspaceView,
} from '../../identity/index.js';

export const BILLING_EVENT_KINDS = [
  'plan',
  'limits',
  'subscription',
  'payment',
  'payment-failed',
  'limit-reached',
  'note',
] as const;
export type BillingEventKind = (typeof BILLING_EVENT_KINDS)[number];

export interface NewBillingEvent {
  organizationId: number;
  kind: BillingEventKind;
  detail: string;
  workspaceId?: number | null;
  userId?: number | null;
  clusterId?: number | null;
  data?: Record<string, unknown>;
}

export async function recordBillingEvent(tx: Db, event: NewBillingEvent): Promise<number> {
  const [row] = await tx
    .insert(billingEvents)
    .values({ ...event, data: event.data ?? {} })
    .returning({ id: billingEvents.id });
  return row!.id;
}

export interface BillingEventFilters {
  organization?: string;
  account?: string;
  organization_id?: number;
  account_id?: number;
  kind?: string;
  cluster?: string;
  cluster_id?: number;
  event_after?: Date;
  event_before?: Date;
}

/** Organizations whose billing the user reads: the ones they administer (staff: all, as null). */
async function administeredOrganizations(db: Db, user: User): Promise<number[] | null> {
  if (user.isStaff) return null;
  return administeredOrganizationIds(db, user.id);
}

function conditions(f: BillingEventFilters): SQL[] {
  const where: SQL[] = [];
  if (f.organization_id) where.push(eq(billingEvents.organizationId, f.organization_id));
  if (f.organization) where.push(eq(organizationView.name, f.organization));
  if (f.account_id) where.push(eq(billingEvents.workspaceId, f.account_id));
  if (f.account) where.push(eq(workspaceView.slug, f.account));
  if (f.kind) where.push(eq(billingEvents.kind, f.kind));
  if (f.cluster_id) where.push(eq(billingEvents.clusterId, f.cluster_id));
  if (f.cluster) where.push(eq(clusterView.name, f.cluster));
  if (f.event_after) where.push(gte(billingEvents.created, f.event_after));
  if (f.event_before) where.push(lt(billingEvents.created, f.event_before));
  return where;
}

const eventColumns = {
  event: billingEvents,
  organization: organizationView.name,
  account: workspaceView.slug,
  username: userView.username,
  cluster: clusterView.name,
};

function presentEvent(r: {
  event: typeof billingEvents.$inferSelect;
  organization: string;
  account: string | null;
  username: string | null;
  cluster: string | null;
}) {
  return {
    id: r.event.id,
    kind: r.event.kind,
    detail: r.event.detail,
    organization_id: r.event.organizationId,
    organization: r.organization,
    account_id: r.event.workspaceId,
    account: r.account,
    user: r.username,
    cluster_id: r.event.clusterId,
    cluster: r.cluster,
    data: r.event.data,
    created: isoTime(r.event.created),
  };
}

const selectEvents = (db: Db, where: SQL | undefined) =>
  db
    .select(eventColumns)
    .from(billingEvents)
    .innerJoin(organizationView, eq(organizationView.id, billingEvents.organizationId))
    .leftJoin(workspaceView, eq(workspaceView.id, billingEvents.workspaceId))
    .leftJoin(userView, eq(userView.id, billingEvents.userId))
    .leftJoin(clusterView, eq(clusterView.id, billingEvents.clusterId))
    .where(where);

export async function billingEventById(db: Db, eventId: number) {
  const [row] = await selectEvents(db, eq(billingEvents.id, eventId));
  return row ? presentEvent(row) : null;
}

/**
 * Billing events, newest first, filtered, within a scope: `organizations` (null: every one) or,
 * for a workspace's v1 list, that workspace's own events.
 */
export async function listBillingEvents(
  db: Db,
  scope: { organizations: number[] | null } | { workspaceId: number },
  filters: BillingEventFilters,
  page: OffsetQuery | PageQuery,
) {
  const where = conditions(filters);
  if ('workspaceId' in scope) where.push(eq(billingEvents.workspaceId, scope.workspaceId));
  else if (scope.organizations)
    where.push(
      scope.organizations.length ? inArray(billingEvents.organizationId, scope.organizations) : sql`false`,
    );
  const total = db
    .select({ n: sql<number>`count(*)::int` })
    .from(billingEvents)
    .innerJoin(organizationView, eq(organizationView.id, billingEvents.organizationId))
    .leftJoin(workspaceView, eq(workspaceView.id, billingEvents.workspaceId))
    .leftJoin(clusterView, eq(clusterView.id, billingEvents.clusterId))
    .where(and(...where))
    .then((rows) => rows[0]?.n ?? 0);
  const { rows, count } = await paginate(
    page,
    selectEvents(db, and(...where)).orderBy(desc(billingEvents.created), desc(billingEvents.id)),
    total,
  );
  return { count, items: rows.map(presentEvent) };
}

export const listUserBillingEvents = async (
  db: Db,
  user: User,
  filters: BillingEventFilters,
  page: OffsetQuery,
) => listBillingEvents(db, { organizations: await administeredOrganizations(db, user) }, filters, page);

export const BILLING_EVENT_KEYS = ['kind', 'organization', 'account'] as const;

/** Values of one filter key that start with the text, for a filter picker. */
export async function billingEventValues(
  db: Db,
  user: User,
  key: (typeof BILLING_EVENT_KEYS)[number],
  prefix: string,
) {
  const scope = await administeredOrganizations(db, user);
  const column =
    key === 'kind' ? billingEvents.kind : key === 'organization' ? organizationView.name : workspaceView.slug;
  const rows = await db
    .selectDistinct({ value: column })
    .from(billingEvents)
    .innerJoin(organizationView, eq(organizationView.id, billingEvents.organizationId))
    .leftJoin(workspaceView, eq(workspaceView.id, billingEvents.workspaceId))
    .where(
      and(
        startsWith(column, prefix),
        scope === null ? undefined : scope.length ? inArray(billingEvents.organizationId, scope) : sql`false`,
      ),
    )
    .orderBy(column)
    .limit(50);
  return rows.flatMap((r) => (r.value === null ? [] : [r.value]));
}
