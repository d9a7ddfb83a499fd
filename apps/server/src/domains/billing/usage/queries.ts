import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { organizationBilling } from '../../../db/schema/index.js';
import type { z } from '../../../http/zod.js';
import { isoTime } from '../../../lib/time.js';
import { organizationView, type ResolvedScope, userView, workspaceView } from '../../identity/index.js';
import { decimal, toMicro } from './micro.js';
import type { UsageGroup, UsageQuery, usageAnswer } from './schemas.js';

const PROVIDER = sql`case h.backend_type when 'vm_aws' then 'aws' when 'vm_gcp' then 'gcp' when 'vm_azure' then 'azure' else 'local' end`;

/** Each group-by: the key rows are grouped and filtered by, and the label shown for it. */
function dimension(group: UsageGroup, tag: string | undefined): { key: SQL; label: SQL } {
  switch (group) {
    case 'account':
      return {
        key: sql`h.account_id::text`,
        label: sql`coalesce(${workspaceView.name}, 'workspace ' || h.account_id)`,
      };
    case 'organization':
      return {
        key: sql`h.organization_id::text`,
        label: sql`coalesce(${organizationView.name}, 'organization ' || h.organization_id)`,
      };
    case 'user':
      return {
        key: sql`coalesce(h.user_id::text, '')`,
        label: sql`coalesce(${userView.username}, 'deleted user')`,
      };
    case 'cluster':
      return { key: sql`h.cluster_id::text`, label: sql`h.cluster_name || ' (' || h.cluster_id || ')'` };
    case 'cluster_type':
      return { key: sql`h.cluster_type`, label: sql`h.cluster_type` };
    case 'instance_type':
      return { key: sql`h.instance_type`, label: sql`h.instance_type` };
    case 'zone':
      return { key: sql`h.zone`, label: sql`coalesce(nullif(h.zone, ''), 'no zone')` };
    case 'gpu_type':
      return { key: sql`h.gpu_type`, label: sql`coalesce(nullif(h.gpu_type, ''), 'no GPU')` };
    case 'cloud_provider':
      return { key: PROVIDER, label: PROVIDER };
    case 'billing_method':
      return {
        key: sql`coalesce(${organizationBilling.billingMethod}, '')`,
        label: sql`coalesce(nullif(${organizationBilling.billingMethod}, ''), 'no billing method')`,
      };
    case 'tag':
      return {
        key: sql`coalesce(h.tags ->> ${tag ?? ''}, '')`,
        label: sql`coalesce(h.tags ->> ${tag ?? ''}, 'untagged')`,
      };
  }
}

/** Each unit's sum, as an exact integer (millionths for money and credits) in text. */
const MEASURE: Record<UsageQuery['unit'], SQL> = {
  credits: sql`sum(h.micro_credits)`,
  'cumulus-cost': sql`sum(h.micro_cumulus_cost)`,
  'approx-cloud-cost': sql`sum(h.micro_cloud_cost)`,
  'instance-minutes': sql`sum(h.instance_minutes)`,
};

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/**
 * `GET usage/`: the unit per period bucket and group, over the caller's scope (members: their
 * workspaces; organization admins: the organization's; staff: everything), from the hourly rollup.
 */
export async function usage(
  db: Db,
  visible: ResolvedScope,
  query: UsageQuery,
): Promise<z.infer<typeof usageAnswer>> {
  const from = new Date(`${query.start}T00:00:00Z`);
  const until = new Date(Date.parse(`${query.end}T00:00:00Z`) + 86_400_000);
  const scope = visible.workspaceIds;
  const group = query.groupby
    ? dimension(query.groupby, query.groupby_tag)
    : { key: sql`'all'`, label: sql`'All usage'` };
  // By hour the hourly rollup; by day, week or month the daily one (ranges start and end on days).
  const [source, time] =
    query.period === 'hour' ? [sql`usage_hourly`, sql`h.hour`] : [sql`usage_daily`, sql`h.day`];
  const conditions: SQL[] = [sql`${time} >= ${from.toISOString()}`, sql`${time} < ${until.toISOString()}`];
  if (scope)
    conditions.push(
      scope.length
        ? sql`h.account_id in (${sql.join(
            scope.map((id) => sql`${id}`),
            sql`, `,
          )})`
        : sql`false`,
    );
  for (const [name, values] of Object.entries(query.group_filters ?? {})) {
    if (!values?.length) continue;
    const { key } = dimension(name as UsageGroup, query.groupby_tag);
    conditions.push(
      sql`${key} in (${sql.join(
        values.map((v) => sql`${v}`),
        sql`, `,
      )})`,
    );
  }
  // Buckets are UTC days, weeks (from Monday) and months whatever the session's time zone.
  const result = await db.execute(sql`
    select date_trunc(${query.period}, ${time}, 'UTC') as bucket, ${group.key} as key, max(${group.label}) as label,
      (${MEASURE[query.unit]})::text as value
    from ${source} h
    left join ${workspaceView} on ${workspaceView.id} = h.account_id
    left join ${organizationView} on ${organizationView.id} = h.organization_id
    left join ${organizationBilling} on ${organizationBilling.organizationId} = h.organization_id
    left join ${userView} on ${userView.id} = h.user_id
    where ${sql.join(conditions, sql` and `)}
    group by 1, 2
    order by 1, 2`);
  const rows = rowsOf<{ bucket: string | Date; key: string; label: string; value: string }>(result);
  // Summed exactly (BigInt) and made decimal once, at the end.
  const groups = new Map<string, { key: string; label: string; total: bigint }>();
  const buckets = new Map<string, { start: string; total: bigint; values: Map<string, bigint> }>();
  for (const row of rows) {
    const start = isoTime(new Date(row.bucket));
    const value = toMicro(row.value);
    const g = groups.get(row.key) ?? { key: row.key, label: row.label, total: 0n };
    g.total += value;
    groups.set(row.key, g);
    const b = buckets.get(start) ?? { start, total: 0n, values: new Map() };
    b.values.set(row.key, value);
    b.total += value;
    buckets.set(start, b);
  }
  const out = query.unit === 'instance-minutes' ? (n: bigint) => Number(n) : (n: bigint) => decimal(n);
  const total = [...groups.values()].reduce((sum, g) => sum + g.total, 0n);
  return {
    unit: query.unit,
    period: query.period,
    groupby: query.groupby ?? null,
    start: query.start,
    end: query.end,
    total: out(total),
    groups: [...groups.values()]
      .sort((a, b) => (b.total > a.total ? 1 : b.total < a.total ? -1 : a.key.localeCompare(b.key)))
      .map((g) => ({ ...g, total: out(g.total) })),
    buckets: [...buckets.values()].map((b) => ({
      start: b.start,
      total: out(b.total),
      values: Object.fromEntries([...b.values].map(([k, v]) => [k, out(v)])),
    })),
  };
}
