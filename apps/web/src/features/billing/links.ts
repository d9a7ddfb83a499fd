import { paths } from '@/lib/paths';

/** The Billing page of an organization (`?account=` takes an organization id or a workspace slug). */
export const billingLink = (organizationId: number | null | undefined) =>
  organizationId ? `${paths.billing}?account=${organizationId}` : paths.billing;
