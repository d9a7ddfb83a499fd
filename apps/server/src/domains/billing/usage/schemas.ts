import { text, z } from '../../../http/zod.js';

export const USAGE_UNITS = ['credits', 'cumulus-cost', 'instance-minutes', 'approx-cloud-cost'] as const;
export const USAGE_PERIODS = ['hour', 'day', 'week', 'month'] as const;
export const USAGE_GROUPS = [
  'account',
  'billing_method',
  'cloud_provider',
  'cluster_type',
  'cluster',
  'gpu_type',
  'instance_type',
  'organization',
  'tag',
  'user',
  'zone',
] as const;
export type UsageGroup = (typeof USAGE_GROUPS)[number];

/** Longest range per period (more buckets than a chart can show). */
export const MAX_DAYS: Record<(typeof USAGE_PERIODS)[number], number> = {
  hour: 31,
  day: 731,
  week: 1831,
  month: 3660,
};

const date = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Enter a date as YYYY-MM-DD.')
  .refine(
    (d) =>
      !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
    'Enter a real date.',
  );

const groupFilters = z
  .string()
  .max(10_000)
  .transform((raw, ctx) => {
    try {
      const parsed = JSON.parse(raw) as unknown;
      const shape = z.partialRecord(
        z.enum(USAGE_GROUPS),
        z.array(z.union([z.string(), z.number()]).transform(String)).max(500),
      );
      const checked = shape.safeParse(parsed);
      if (checked.success) return checked.data as Partial<Record<UsageGroup, string[]>>;
    } catch {
      // reported below
    }
    ctx.addIssue({
      code: 'custom',
      message: `Give a JSON object of group-by names to lists of values, e.g. {"user": ["alice"]}.`,
    });
    return z.NEVER;
  });

export const usageQuery = z
  .object({
    unit: z.enum(USAGE_UNITS),
    start: date,
    end: date,
    period: z.enum(USAGE_PERIODS).default('day'),
    groupby: z.enum(USAGE_GROUPS).optional(),
    groupby_tag: text(200).min(1).optional(),
    group_filters: groupFilters.optional(),
  })
  .superRefine((q, ctx) => {
    const days = (Date.parse(q.end) - Date.parse(q.start)) / 86_400_000;
    if (days < 0)
      ctx.addIssue({ code: 'custom', path: ['end'], message: 'The end date is before the start date.' });
    else if (days + 1 > MAX_DAYS[q.period])
      ctx.addIssue({
        code: 'custom',
        path: ['end'],
        message: `At most ${MAX_DAYS[q.period]} days by ${q.period}: choose a longer period or a shorter range.`,
      });
    if (q.groupby === 'tag' && !q.groupby_tag)
      ctx.addIssue({ code: 'custom', path: ['groupby_tag'], message: 'Name the tag to group by.' });
  });
export type UsageQuery = z.infer<typeof usageQuery>;

export const usageAnswer = z.object({
  unit: z.enum(USAGE_UNITS),
  period: z.enum(USAGE_PERIODS),
  groupby: z.string().nullable(),
  start: z.string(),
  end: z.string(),
  total: z.number(),
  groups: z.array(z.object({ key: z.string(), label: z.string(), total: z.number() })),
  buckets: z.array(
    z.object({ start: z.string(), total: z.number(), values: z.record(z.string(), z.number()) }),
  ),
});

/** `user/account/{ws}/usage`: this month's credits of the caller and of the workspace, and whether they may start clusters. */
export const usageSchema = z.object({
  has_quota: z.boolean(),
  credit_limit: z.number().int().nullable(),
  credits_used: z.number(),
  workspace_credit_limit: z.number().int().nullable(),
  workspace_credits_used: z.number(),
});
