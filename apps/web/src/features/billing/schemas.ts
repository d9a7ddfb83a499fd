import { z } from 'zod';

// The Billing page's forms; the server checks the same bounds (apps/server pricing/schemas.ts).

const CREDIT_MAX = 2_000_000_000;
const DOLLAR_MAX = 100_000_000;

/** A limit typed into a field: empty means no limit (null), else a number from 0. */
const optionalLimit = (label: string, { whole, max }: { whole: boolean; max: number }) =>
  z
    .string()
    .trim()
    .refine((value) => value === '' || /^\d+(\.\d+)?$/.test(value), {
      error: `${label} must be a number from 0, or empty for no limit`,
      abort: true,
    })
    .transform((value) => (value === '' ? null : Number(value)))
    .refine((value) => value === null || !whole || Number.isInteger(value), `${label} must be a whole number`)
    .refine(
      (value) => value === null || whole || Math.abs(value * 100 - Math.round(value * 100)) < 1e-6,
      `${label} takes at most 2 decimals`,
    )
    .refine((value) => value === null || value <= max, `${label} is too large`);

/** `pricing/update/{org}`: what organization admins set. */
export const limitsSchema = z.object({
  organizationCreditLimit: optionalLimit('The credit limit', { whole: true, max: CREDIT_MAX }),
  // Named after the wire field (program_dollars_spend_limit) so the server's field errors land on it.
  programDollarsSpendLimit: optionalLimit('The spend limit', { whole: false, max: DOLLAR_MAX }),
  spendLimitShouldStopInstances: z.boolean(),
});
export type LimitsValues = z.input<typeof limitsSchema>;

const count = (label: string) => optionalLimit(label, { whole: true, max: CREDIT_MAX });

/** `pricing/update-staff/{org}`: the plan's fields staff set (besides the limits above). */
export const staffPlanSchema = z.object({
  tier: z.enum(['essentials', 'free', 'basic', 'professional', 'enterprise']),
  /** `none` stands for the empty billing method (a select cannot hold an empty value). */
  billingMethod: z.enum(['none', 'stripe', 'aws', 'invoice']),
  creditAllotment: z
    .string()
    .trim()
    .regex(/^\d+$/, 'The allotment must be a whole number from 0')
    .transform(Number)
    .refine((value) => value <= CREDIT_MAX, 'The allotment is too large'),
  memberLimit: count('The member limit'),
  seatLimit: count('The seat limit'),
  workspaceLimit: count('The workspace limit'),
  nodeLimit: count('The node limit'),
  coreLimitMembers: count('The core limit'),
  spotUsageLimit: count('The spot usage limit'),
  armUsageLimit: count('The ARM usage limit'),
  canUseCustomNetworking: z.enum(['yes', 'no']),
  canUsePrivatePypi: z.enum(['yes', 'no']),
  billingPeriods: z
    .string()
    .trim()
    .regex(/^\d+$/, 'Billing periods must be a whole number of months')
    .transform(Number)
    .refine((value) => value >= 1 && value <= 120, 'Billing periods are 1 to 120 months'),
  cumulusCreditValue: z
    .string()
    .trim()
    .regex(/^\d+(\.\d+)?$/, 'The credit value must be a number of dollars')
    .transform(Number)
    .refine((value) => value <= 1000, 'The credit value is at most $1,000'),
  /** YYYY-MM-DD, or empty for no trial. */
  trialExpiration: z
    .string()
    .trim()
    .refine((value) => value === '' || /^\d{4}-\d{2}-\d{2}$/.test(value), 'Give a date, or leave it empty'),
});
export type StaffPlanValues = z.input<typeof staffPlanSchema>;
