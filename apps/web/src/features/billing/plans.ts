import type { Tier } from '@/data/pricing/plan-query';

export const TIER_NAMES: Record<Tier, string> = {
  essentials: 'Essentials',
  free: 'Free',
  basic: 'Basic',
  professional: 'Professional',
  enterprise: 'Enterprise',
};

/** Tiers an organization may move to Professional from, by card. */
export const UPGRADABLE_TIERS: readonly Tier[] = ['essentials', 'free', 'basic'];

/**
 * What the Free and Professional plans start with, as the server's tiers (apps/server
 * src/modules/pricing/tiers.ts) set them; for the public plan page, which reads no API. The
 * Billing page shows an organization's own limits from `pricing/{org}`.
 */
export const PLAN_COMPARISON: ReadonlyArray<{ feature: string; free: string; professional: string }> = [
  { feature: 'Credits included each month', free: '10,000', professional: '10,000' },
  {
    feature: 'Credits beyond the included ones',
    free: 'Only where the server takes no payments',
    professional: 'Pay as you go, up to the limits you set',
  },
  { feature: 'Members and seats', free: 'Up to 50', professional: 'Unlimited' },
  { feature: 'Workspaces', free: 'Up to 10', professional: 'Unlimited' },
  { feature: 'Cores per member', free: '1,000', professional: '10,000' },
  { feature: 'Credit and spend limits', free: 'Yes', professional: 'Yes' },
  { feature: 'Invoices and billing portal', free: '—', professional: 'Yes' },
];
