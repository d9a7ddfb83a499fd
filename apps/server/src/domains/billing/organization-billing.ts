import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { type OrganizationBilling, organizationBilling } from '../../db/schema/index.js';
import type { BillingPort } from '../identity/index.js';

// An organization's billing state: how it pays, its Stripe customer and subscription's status,
// its trial and scheduled plan change (table organization_billing, billing's). Every organization
// has its row from its insertion on (migration 0038's trigger), so a read always finds one.

export type { OrganizationBilling };
/** What billing changes of an organization's billing state. */
export type BillingChanges = Partial<Omit<OrganizationBilling, 'organizationId'>>;

/** The organization's billing state. */
export async function billingOf(db: Db, organizationId: number): Promise<OrganizationBilling> {
  const [row] = await db
    .select()
    .from(organizationBilling)
    .where(eq(organizationBilling.organizationId, organizationId));
  if (!row)
    throw new Error(`organization ${organizationId} has no billing row (migration 0038 gives each one)`);
  return row;
}

/** Changes the organization's billing state. */
export async function updateBilling(tx: Db, organizationId: number, changes: BillingChanges): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  // An upsert: the change lands even on a row the trigger has not made (it always has).
  await tx
    .insert(organizationBilling)
    .values({ ...changes, organizationId })
    .onConflictDoUpdate({ target: organizationBilling.organizationId, set: changes });
}

/** The organization whose Stripe customer this is, if any. */
export async function organizationOfStripeCustomer(db: Db, customer: string): Promise<number | null> {
  const [row] = await db
    .select({ id: organizationBilling.organizationId })
    .from(organizationBilling)
    .where(eq(organizationBilling.stripeCustomerId, customer));
  return row?.id ?? null;
}

/** What identity shows of an organization's billing (IdentityPorts.billing, handed in by server.ts). */
export const billingPort: BillingPort = {
  // Everything but the Stripe customer, which identity never sees.
  billingOf: async (db, organizationId) => {
    const { organizationId: _, stripeCustomerId: __, ...shown } = await billingOf(db, organizationId);
    return shown;
  },
  async trialsOf(db, organizationIds) {
    if (organizationIds.length === 0) return new Map();
    const rows = await db
      .select({ id: organizationBilling.organizationId, trial: organizationBilling.trialExpiration })
      .from(organizationBilling)
      .where(inArray(organizationBilling.organizationId, [...new Set(organizationIds)]));
    return new Map(rows.map((r) => [r.id, r.trial]));
  },
};
