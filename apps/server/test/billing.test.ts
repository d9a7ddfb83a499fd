import { eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  billingEvents,
  emailOutbox,
  instanceSpecs,
  organizationBilling,
  organizations,
  subscriptions,
  usageHourly,
} from '../src/db/schema/index.js';
import type { Api } from './helpers/api.js';
import {
  addMember,
  createClusterRow,
  createOrganization,
  createUser,
  createWorkspace,
  type TestUser,
} from './helpers/factories.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { StripeFake } from './helpers/stripe-fake.js';

/**
 * Plans, the limits admins and staff set, usage percentages, billing events, and billing
 * through the official Stripe client against a local fake of Stripe's API, with webhooks signed by
 * the package's own test helper.
 */
const stripe = new StripeFake();
let plain: TestServer;
let paid: TestServer;
let staff: TestUser;

beforeAll(async () => {
  await stripe.start();
  [plain, paid] = await Promise.all([startTestServer(), startTestServer(stripe.env())]);
  staff = await createUser(paid, { staff: true });
}, 180_000); // two servers migrating their databases at once take long on a loaded machine

afterAll(async () => {
  await Promise.all([plain?.close(), paid?.close()]);
  await stripe.stop();
});

/** An organization with an admin, a member and a workspace both belong to. */
async function team(ts: TestServer) {
  const admin = await createUser(ts);
  const member = await createUser(ts);
  const org = await createOrganization(ts, admin);
  const ws = await createWorkspace(ts, org);
  await addMember(ts, admin, org, { role: 'admin', workspaces: [{ workspace: ws, isAdmin: true }] });
  await addMember(ts, member, org, { workspaces: [{ workspace: ws, creditLimit: 40 }] });
  return {
    admin: ts.api.as(admin.key),
    member: ts.api.as(member.key),
    adminUser: admin,
    memberUser: member,
    org,
    ws,
  };
}

/** Credits used this hour in a workspace by a user (written as the meter's rollup would). */
async function use(
  ts: TestServer,
  t: { org: { id: number }; ws: { id: number } },
  userId: number,
  credits: number,
  cost = 0,
) {
  const hour = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000);
  await ts.server.deps.db.insert(usageHourly).values({
    hour,
    clusterId: 100_000 + Math.floor(Math.random() * 1e6),
    clusterName: 'seeded',
    workspaceId: t.ws.id,
    organizationId: t.org.id,
    userId,
    clusterType: 'standard',
    backendType: 'in_process',
    instanceType: 'local',
    instanceMinutes: 60,
    coreMinutes: credits * 60,
    microCredits: credits * 1_000_000,
    microCloudCost: 0,
    microCumulusCost: cost * 1_000_000,
  });
}

const events = (ts: TestServer, orgId: number) =>
  ts.server.deps.db.select().from(billingEvents).where(eq(billingEvents.organizationId, orgId));

describe('plans and limits', () => {
  it('answers the free plan, with what the caller may change, to every reader and no one else', async () => {
    const t = await team(plain);
    const outsider = plain.api.as((await createUser(plain)).key);
    const plan = (await t.member.get(`/api/v2/pricing/${t.org.id}`)).body;
    expect(plan).toMatchObject({
      organization_id: t.org.id,
      tier: 'free',
      member_limit: 50,
      workspace_limit: 10,
      credit_allotment: 10000,
      organization_credit_limit: null,
      program_dollars_spend_limit: null,
      billing_method: '',
      billing_configured: false,
      can_update_limits: false,
      can_change_plan: false,
      cumulus_credit_value: 0.05,
      // The free tier's gates (pricing/tiers.ts).
      spot_usage_limit: 25,
      arm_usage_limit: 25,
      can_use_custom_networking: false,
      can_use_private_pypi: false,
      billing_periods: 1,
      subscription_period_end: null,
    });
    // Credits renew, and limits reset, on the 1st of next month (UTC).
    const now = new Date();
    const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
    expect(plan.renew_date).toBe(`${first.toISOString().slice(0, 10)}T00:00:00.000000+00:00`);
    // The organization answers the same fields.
    const details = (await t.member.get(`/api/v2/users/organizations/details/${t.org.id}`)).body;
    expect(details).toMatchObject({
      billing_method: '',
      seat_limit: 50,
      spot_usage_limit: 25,
      arm_usage_limit: 25,
      can_use_custom_networking: false,
      can_use_private_pypi: false,
      billing_periods: 1,
      renew_date: plan.renew_date,
    });
    expect((await t.admin.get(`/api/v2/pricing/${t.org.id}`)).body).toMatchObject({
      can_update_limits: true,
      can_change_plan: true,
    });
    expect((await outsider.get(`/api/v2/pricing/${t.org.id}`)).status).toBe(404);
  });

  it('lets organization admins set their credit and spend limits, records it, and refuses bad values whole', async () => {
    const t = await team(plain);
    const url = `/api/v2/pricing/update/${t.org.id}`;
    expect((await t.member.patch(url, { organization_credit_limit: 5 })).status).toBe(403);
    const bad = await t.admin.patch(url, { organization_credit_limit: -1, program_dollars_spend_limit: 10 });
    expect(bad.status).toBe(400);
    expect(bad.body.organization_credit_limit[0]).toContain('greater than or equal to 0');
    expect((await t.admin.patch(url, { tier: 'enterprise' })).status).toBe(400);
    expect((await t.admin.get(`/api/v2/pricing/${t.org.id}`)).body.program_dollars_spend_limit).toBeNull();

    const ok = await t.admin.patch(url, {
      organization_credit_limit: 500,
      program_dollars_spend_limit: 12.5,
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ organization_credit_limit: 500, program_dollars_spend_limit: 12.5 });
    const [event] = await events(plain, t.org.id);
    expect(event).toMatchObject({ kind: 'limits', userId: t.adminUser.id });
    expect(event!.data).toMatchObject({ changes: { organization_credit_limit: [null, 500] } });
    expect(event!.detail).toBe(
      `${t.adminUser.username} set organization credit limit to 500, program dollars spend limit to 12.5.`,
    );
    // Without Stripe, lifting the cap again needs no billing method.
    expect(
      (await t.admin.patch(url, { organization_credit_limit: null })).body.organization_credit_limit,
    ).toBeNull();
  });

  it('gives percentages of this month against every limit; members read only their own workspaces', async () => {
    const t = await team(plain);
    await t.admin.patch(`/api/v2/pricing/update/${t.org.id}`, {
      organization_credit_limit: 200,
      program_dollars_spend_limit: 4,
    });
    await use(plain, t, t.memberUser.id, 30, 3);
    await use(plain, t, t.adminUser.id, 20, 0);
    const plan = (await t.member.get(`/api/v2/pricing/usage/${t.org.id}`)).body;
    expect(plan).toMatchObject({
      credits_used: 50,
      dollars_spent: 3,
      program_credits_usage_percent: 25,
      program_dollars_spend_usage_percent: 75,
      credit_allotment_usage_percent: 0.5,
    });
    const ws = (await t.member.get(`/api/v2/pricing/workspace/${t.ws.id}/usage`)).body;
    expect(ws).toMatchObject({
      credits_used: 30,
      credit_limit: 40,
      workspace_credits_used: 50,
      workspace_credit_limit: null,
      workspace_credits_user_usage_percent: 75,
      workspace_credits_usage_percent: null,
    });
    const stranger = plain.api.as((await createUser(plain)).key);
    expect((await stranger.get(`/api/v2/pricing/workspace/${t.ws.id}/usage`)).status).toBe(404);
    expect((await stranger.get(`/api/v2/pricing/usage/${t.org.id}`)).status).toBe(404);

    const from = new Date(Date.now() - 86_400_000).toISOString();
    const until = new Date(Date.now() + 86_400_000).toISOString();
    const range = (api: Api) =>
      api.get(`/api/v2/pricing/organization/${t.org.id}/usage`, {
        query: { start_date: from, end_date: until },
      });
    expect((await range(t.member)).status).toBe(403);
    const org = (await range(t.admin)).body;
    expect(org).toMatchObject({ credits: 50, cumulus_cost: 3, instance_minutes: 120 });
    expect(org.workspaces).toEqual([expect.objectContaining({ account_id: t.ws.id, credits: 50 })]);
    const backwards = await t.admin.get(`/api/v2/pricing/organization/${t.org.id}/usage`, {
      query: { start_date: until, end_date: from },
    });
    expect(backwards.status).toBe(400);
    expect(backwards.body.end_date).toBeDefined();
  });

  it('lets staff change anything, and refuses a new cluster over the plan node limit', async () => {
    const admin = await createUser(paid);
    const me = (await paid.api.as(admin.key).get('/api/v2/user/me')).body;
    const orgId = me.default_organization.id;
    expect(
      (await paid.api.as(admin.key).patch(`/api/v2/pricing/update-staff/${orgId}`, { node_limit: 0 })).status,
    ).toBe(403);
    const changed = await paid.api.as(staff.key).patch(`/api/v2/pricing/update-staff/${orgId}`, {
      node_limit: 2,
      tier: 'basic',
      cumulus_credit_value: 0.1,
    });
    expect(changed.body).toMatchObject({
      node_limit: 2,
      tier: 'basic',
      cumulus_credit_value: 0.1,
      can_update_staff: true,
    });
    const refused = await paid.api
      .as(admin.key)
      .post(`/api/v2/clusters/account/${me.default_account.slug}/`, { name: 'wide', workers: 2 });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'NODE_LIMIT_REACHED', node_limit: 2 });
    expect(refused.body.detail).toContain("over its plan's node limit of 2");
    const trial = new Date(Date.now() + 5 * 86_400_000).toISOString();
    await paid.api.as(staff.key).patch(`/api/v2/pricing/update-staff/${orgId}`, { trial_expiration: trial });
    const memberships = (await paid.api.as(admin.key).get('/api/v2/users/user/organization/memberships'))
      .body;
    const mine = (Array.isArray(memberships) ? memberships : memberships.items).find(
      (m: { organization_id: number }) => m.organization_id === orgId,
    );
    expect(Date.parse(mine.displayed_pro_trial_expiration)).toBe(Date.parse(trial));
    const details = (await paid.api.as(admin.key).get(`/api/v2/users/organizations/details/${orgId}`)).body;
    expect(details).toMatchObject({ node_limit: 2, feature_tier: 'basic', cumulus_credit_value: 0.1 });
    // The basic tier's gates came with it; staff change them, admins cannot.
    expect(changed.body).toMatchObject({ spot_usage_limit: 100, can_use_custom_networking: true });
    const gates = {
      spot_usage_limit: 3,
      arm_usage_limit: null,
      can_use_custom_networking: false,
      can_use_private_pypi: true,
      billing_periods: 12,
    };
    expect((await paid.api.as(admin.key).patch(`/api/v2/pricing/update/${orgId}`, gates)).status).toBe(400);
    expect((await paid.api.as(admin.key).patch(`/api/v2/pricing/update-staff/${orgId}`, gates)).status).toBe(
      403,
    );
    const gated = await paid.api.as(staff.key).patch(`/api/v2/pricing/update-staff/${orgId}`, gates);
    expect(gated.body).toMatchObject(gates);
    expect(
      (await paid.api.as(admin.key).get(`/api/v2/users/organizations/details/${orgId}`)).body,
    ).toMatchObject(gates);
    const bad = await paid.api.as(staff.key).patch(`/api/v2/pricing/update-staff/${orgId}`, {
      spot_usage_limit: -1,
      billing_periods: 0,
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body).sort()).toEqual(['billing_periods', 'spot_usage_limit']);
    const cores = (await paid.api.as(admin.key).get(`/api/v1/${me.default_account.slug}/usage/cores/`)).body;
    expect(cores).toMatchObject({
      cores_used: 0,
      organization_nodes_used: 0,
      node_limit: 2,
      core_limit: 1000,
    });
  });

  it('asks staff for Enterprise when an admin upgrades, and applies it when staff do', async () => {
    const t = await team(paid);
    const asked = await t.admin.post(`/api/v2/pricing/upgrade-to-enterprise/${t.org.id}`);
    expect(asked.body).toMatchObject({ tier: 'free', next_phase_tier: 'enterprise' });
    const mail = await paid.server.deps.db.select().from(emailOutbox).where(eq(emailOutbox.to, staff.email));
    expect(mail.some((m) => m.subject.includes('asks for the Enterprise plan'))).toBe(true);
    const applied = await paid.api.as(staff.key).post(`/api/v2/pricing/upgrade-to-enterprise/${t.org.id}`);
    expect(applied.body).toMatchObject({
      tier: 'enterprise',
      billing_method: 'invoice',
      member_limit: null,
      next_phase_tier: null,
      can_change_plan: false,
      billing_periods: 12,
      can_use_private_pypi: true,
    });
    // An Enterprise plan changes through us: its admin can neither drop it nor check out another.
    const refused = await t.admin.post(`/api/v2/pricing/downgrade-to-free/${t.org.id}`);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe('Contact us to make changes to your Enterprise plan');
    const checkout = await t.admin.post(
      `/api/v2/subscriptions/subscriptions/checkout-session/${t.org.id}`,
      {},
    );
    expect(checkout.status).toBe(403);
    expect(checkout.body.detail).toBe('Contact us to make changes to your Enterprise plan');
    expect((await t.admin.get(`/api/v2/pricing/${t.org.id}`)).body).toMatchObject({
      tier: 'enterprise',
      billing_method: 'invoice',
    });
    const down = await paid.api.as(staff.key).post(`/api/v2/pricing/downgrade-to-free/${t.org.id}`);
    expect(down.status).toBe(200);
    expect(down.body).toMatchObject({ tier: 'free', member_limit: 50, billing_periods: 1 });
    const listed = (
      await t.admin.get('/api/v2/pricing/billing-events/', {
        query: { organization_id: t.org.id, kind: 'plan' },
      })
    ).body;
    expect(listed.items.map((e: { detail: string }) => e.detail)).toEqual([
      expect.stringContaining('moved the plan from Enterprise to Free'),
      expect.stringContaining('to Enterprise.'),
      expect.stringContaining('asked to move'),
    ]);
    expect(
      (await t.member.get('/api/v2/pricing/billing-events/', { query: { organization_id: t.org.id } })).body
        .count,
    ).toBe(0);
    const kinds = (await t.admin.get('/api/v2/pricing/billing-events/key/values', { query: { key: 'kind' } }))
      .body;
    expect(kinds).toEqual(['plan']);
  });
});

describe('billing with Stripe', () => {
  const post = (ts: TestServer, event: Stripe.Event, options: Parameters<StripeFake['sign']>[1] = {}) => {
    const { payload, header } = stripe.sign(event, options);
    return ts.api.post('/api/v2/subscriptions/webhooks/stripe', payload, {
      headers: { 'stripe-signature': header, 'content-type': 'application/json; charset=utf-8' },
    });
  };

  it('says billing is not configured without keys, while limits still work', async () => {
    const t = await team(plain);
    const checkout = await t.admin.post(`/api/v2/subscriptions/subscriptions/checkout-session/${t.org.id}`, {
      target_tier: 'professional',
    });
    expect(checkout.status).toBe(400);
    expect(checkout.body).toMatchObject({ code: 'BILLING_NOT_CONFIGURED' });
    expect((await t.admin.get(`/api/v2/pricing/organization/${t.org.id}/payment-method`)).body).toEqual({
      payment_method: null,
    });
    const hook = await plain.api.post('/api/v2/subscriptions/webhooks/stripe', '{}', {
      headers: { 'stripe-signature': 't=1,v1=00' },
    });
    expect(hook.status).toBe(400);
  });

  it('subscribes through Checkout and a signed webhook, and refuses a forged or stale one changing nothing', async () => {
    const t = await team(paid);
    expect(
      (await t.member.post(`/api/v2/subscriptions/subscriptions/checkout-session/${t.org.id}`, {})).status,
    ).toBe(403);
    const checkout = await t.admin.post(`/api/v2/subscriptions/subscriptions/checkout-session/${t.org.id}`, {
      target_tier: 'professional',
    });
    expect(checkout.status).toBe(200);
    expect(checkout.body.url).toMatch(/^https:\/\/checkout\.stripe\.test\//);
    const session = stripe.sessions.get(checkout.body.id)!;
    expect(session).toMatchObject({ mode: 'subscription', metadata: { organization_id: String(t.org.id) } });
    const [org] = await paid.server.deps.db
      .select({ name: organizations.name, stripeCustomerId: organizationBilling.stripeCustomerId })
      .from(organizations)
      .innerJoin(organizationBilling, eq(organizationBilling.organizationId, organizations.id))
      .where(eq(organizations.id, t.org.id));
    expect(stripe.customers.get(org!.stripeCustomerId!)).toMatchObject({ name: org!.name });

    const completed = stripe.completeCheckout(checkout.body.id);
    const before = (await events(paid, t.org.id)).length;
    const forged = await post(paid, completed, { secret: 'whsec_not_the_right_one' });
    expect(forged.status).toBe(400);
    expect(forged.body).toMatchObject({ code: 'INVALID_SIGNATURE' });
    const stale = await post(paid, completed, { timestamp: Math.floor(Date.now() / 1000) - 301 });
    expect(stale.status).toBe(400);
    const unchanged = (await t.admin.get(`/api/v2/pricing/${t.org.id}`)).body;
    expect(unchanged).toMatchObject({ tier: 'free', billing_method: '', subscription_status: null });
    expect(await events(paid, t.org.id)).toHaveLength(before);

    // Signed a few minutes ago, inside Stripe's 300 s tolerance: accepted.
    const accepted = await post(paid, completed, { timestamp: Math.floor(Date.now() / 1000) - 290 });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({ received: true, duplicate: false });
    const plan = (await t.member.get(`/api/v2/pricing/${t.org.id}`)).body;
    expect(plan).toMatchObject({
      tier: 'professional',
      billing_method: 'stripe',
      subscription_status: 'active',
      member_limit: null,
    });
    const first = [...stripe.subscriptions.values()].at(-1)!;
    const periodEnd = (s: typeof first) =>
      (s.items as { data: { current_period_end: number }[] }).data[0]!.current_period_end;
    // Credits renew on the 1st whatever Stripe's period; the subscription's renewal is shown apart.
    expect(plan.renew_date).toMatch(/^\d{4}-\d\d-01T00:00:00\.000000\+00:00$/);
    expect(Date.parse(plan.subscription_period_end)).toBe(periodEnd(first) * 1000);
    expect((await post(paid, completed)).body).toEqual({ received: true, duplicate: true });
    expect((await events(paid, t.org.id)).filter((e) => e.kind === 'plan')).toHaveLength(1);

    const active = await t.member.get('/api/v2/subscriptions/subscriptions/active-subscription', {
      query: { workspace_id: t.ws.id },
    });
    expect(active.body).toMatchObject({
      status: 'active',
      tier: 'professional',
      stripe_subscription_id: first.id,
    });
    expect(
      (await t.member.get(`/api/v2/subscriptions/subscriptions/subscription/${active.body.id}`)).body.id,
    ).toBe(active.body.id);

    // A second checkout asks to confirm (409 confirm protocol), then goes ahead.
    const again = await t.admin.post(`/api/v2/subscriptions/subscriptions/checkout-session/${t.org.id}`, {});
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ actionRequired: 'confirm', code: 'SUBSCRIPTION_EXISTS' });
    const confirmed = await t.admin.post(
      `/api/v2/subscriptions/subscriptions/checkout-session/${t.org.id}?confirm=true`,
      {},
    );
    expect(confirmed.status).toBe(200);
    expect(again.body.detail).toContain('the current one is cancelled');

    // Completing it cancels the first subscription in Stripe: one subscription bills.
    const replacing = await post(paid, stripe.completeCheckout(confirmed.body.id));
    expect(replacing.status).toBe(200);
    const sub = [...stripe.subscriptions.values()].at(-1)!;
    expect(sub.id).not.toBe(first.id);
    expect(stripe.calls).toContain(`DELETE /v1/subscriptions/${first.id}`);
    expect(stripe.subscriptions.get(first.id as string)).toMatchObject({ status: 'canceled' });
    const rows = await paid.server.deps.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.organizationId, t.org.id));
    expect(Object.fromEntries(rows.map((r) => [r.stripeSubscriptionId, r.status]))).toEqual({
      [first.id as string]: 'canceled',
      [sub.id as string]: 'active',
    });
    expect(
      [...stripe.subscriptions.values()].filter(
        (s) => s.customer === org!.stripeCustomerId && s.status === 'active',
      ),
    ).toHaveLength(1);
    expect(
      (
        await t.member.get('/api/v2/subscriptions/subscriptions/active-subscription', {
          query: { organization_id: t.org.id },
        })
      ).body,
    ).toMatchObject({ stripe_subscription_id: sub.id, status: 'active' });
    expect((await t.admin.get(`/api/v2/pricing/${t.org.id}`)).body).toMatchObject({
      tier: 'professional',
      billing_method: 'stripe',
      subscription_status: 'active',
    });
    // Stripe's own word that the first ended changes nothing more, and cancels nothing else.
    const calls = stripe.calls.length;
    await post(
      paid,
      stripe.event('customer.subscription.deleted', stripe.subscriptions.get(first.id as string)!),
    );
    expect(stripe.calls.slice(calls).filter((c) => c.startsWith('DELETE'))).toEqual([]);
    expect((await t.admin.get(`/api/v2/pricing/${t.org.id}`)).body).toMatchObject({
      tier: 'professional',
      subscription_status: 'active',
    });
    const end = periodEnd(sub);

    // Payments: card, invoices, preview, portal.
    stripe.addCard(org!.stripeCustomerId!);
    expect((await post(paid, stripe.addInvoice(org!.stripeCustomerId!, 4900))).status).toBe(200);
    expect(
      (await t.admin.get(`/api/v2/pricing/organization/${t.org.id}/payment-method`)).body.payment_method,
    ).toEqual({
      brand: 'visa',
      last4: '4242',
      exp_month: 12,
      exp_year: 2030,
    });
    const history = (await t.admin.get(`/api/v2/pricing/organization/${t.org.id}/payment-history`)).body;
    expect(history.items[0]).toMatchObject({ status: 'paid', amount_paid_cents: 4900, currency: 'usd' });
    const preview = (await t.admin.get(`/api/v2/pricing/organization/${t.org.id}/invoice-preview`)).body;
    expect(preview.invoice).toMatchObject({
      amount_due_cents: 4900,
      lines: [{ description: 'Cumulus Professional' }],
    });
    expect((await t.member.get(`/api/v2/pricing/organization/${t.org.id}/invoice-preview`)).status).toBe(403);
    const portal = await t.admin.post(`/api/v2/subscriptions/subscriptions/billing-portal/${t.org.id}`);
    expect(portal.body.url).toMatch(/^https:\/\/billing\.stripe\.test\//);
    expect(
      (await events(paid, t.org.id)).some((e) => e.kind === 'payment' && e.detail.includes('49.00 USD')),
    ).toBe(true);

    // past_due keeps the plan while Stripe retries; a failed payment is recorded.
    await post(paid, stripe.updateSubscription(sub.id as string, { status: 'past_due' }));
    await post(paid, stripe.addInvoice(org!.stripeCustomerId!, 4900, false));
    expect((await t.admin.get(`/api/v2/pricing/${t.org.id}`)).body).toMatchObject({
      tier: 'professional',
      subscription_status: 'past_due',
    });
    expect((await events(paid, t.org.id)).some((e) => e.kind === 'payment-failed')).toBe(true);

    // Downgrading keeps the paid period; Stripe ending the subscription moves the plan to free.
    await post(paid, stripe.updateSubscription(sub.id as string, { status: 'active' }));
    const down = await t.admin.post(`/api/v2/pricing/downgrade-to-free/${t.org.id}`);
    expect(stripe.calls, JSON.stringify(stripe.calls)).toContain(`POST /v1/subscriptions/${sub.id}`);
    expect(down.body).toMatchObject({ tier: 'professional', next_phase_tier: 'free' });
    expect(Date.parse(down.body.cancel_at)).toBe(end * 1000);
    await post(
      paid,
      stripe.updateSubscription(sub.id as string, { status: 'canceled' }, 'customer.subscription.deleted'),
    );
    expect((await t.admin.get(`/api/v2/pricing/${t.org.id}`)).body).toMatchObject({
      tier: 'free',
      billing_method: '',
      subscription_status: 'canceled',
      next_phase_tier: null,
    });
    expect(
      (
        await t.member.get('/api/v2/subscriptions/subscriptions/active-subscription', {
          query: { organization_id: t.org.id },
        })
      ).body,
    ).toBeNull();

    // Stripe delivers events in no guaranteed order: one sent while it was still active, arriving
    // after the cancellation, changes nothing (what Stripe says of the subscription now counts).
    const late = stripe.event('customer.subscription.updated', {
      ...stripe.subscriptions.get(sub.id as string)!,
      status: 'active',
    });
    expect((await post(paid, late)).status).toBe(200);
    expect((await t.admin.get(`/api/v2/pricing/${t.org.id}`)).body).toMatchObject({
      tier: 'free',
      subscription_status: 'canceled',
    });
  });

  it("keeps a trial staff set unless Stripe's subscription carries one of its own", async () => {
    const t = await team(paid);
    const trial = new Date(Math.floor(Date.now() / 1000 + 9 * 86_400) * 1000).toISOString();
    await paid.api
      .as(staff.key)
      .patch(`/api/v2/pricing/update-staff/${t.org.id}`, { trial_expiration: trial });
    const checkout = await t.admin.post(
      `/api/v2/subscriptions/subscriptions/checkout-session/${t.org.id}`,
      {},
    );
    expect((await post(paid, stripe.completeCheckout(checkout.body.id))).status).toBe(200);
    const sub = [...stripe.subscriptions.values()].at(-1)!;
    await post(paid, stripe.updateSubscription(sub.id as string, { cancel_at_period_end: false }));
    const kept = (await t.admin.get(`/api/v2/pricing/${t.org.id}`)).body;
    expect(kept).toMatchObject({ tier: 'professional', subscription_status: 'active' });
    expect(Date.parse(kept.trial_expiration)).toBe(Date.parse(trial));
    // A subscription in a trial of its own says when it ends.
    const stripeTrial = Math.floor(Date.now() / 1000) + 14 * 86_400;
    await post(
      paid,
      stripe.updateSubscription(sub.id as string, { status: 'trialing', trial_end: stripeTrial }),
    );
    expect(Date.parse((await t.admin.get(`/api/v2/pricing/${t.org.id}`)).body.trial_expiration)).toBe(
      stripeTrial * 1000,
    );
  });

  it('keeps an organization on card billing above its allotment only with a billing method', async () => {
    const t = await team(paid);
    const raise = await t.admin.patch(`/api/v2/pricing/update/${t.org.id}`, {
      organization_credit_limit: 20_000,
    });
    expect(raise.status).toBe(400);
    expect(raise.body.organization_credit_limit[0]).toContain('Add a payment method');
    expect(
      (await t.admin.patch(`/api/v2/pricing/update/${t.org.id}`, { organization_credit_limit: 5000 })).status,
    ).toBe(200);
  });
});

describe('v1 billing events', () => {
  it("lists a workspace's limit-reached events by cluster for its members, paged", async () => {
    const t = await team(plain);
    const { db } = plain.server.deps;
    await db.insert(billingEvents).values([
      {
        organizationId: t.org.id,
        workspaceId: t.ws.id,
        clusterId: 7,
        kind: 'limit-reached',
        detail: 'Stopped because x',
      },
      {
        organizationId: t.org.id,
        workspaceId: t.ws.id,
        clusterId: 8,
        kind: 'limit-reached',
        detail: 'Stopped because y',
      },
      { organizationId: t.org.id, kind: 'plan', detail: 'organization-wide' },
    ]);
    const slug = t.ws.slug;
    const page = (await t.member.get(`/api/v1/${slug}/billing-events/`, { query: { page_size: 1 } })).body;
    expect(page).toMatchObject({ count: 2, previous: null });
    expect(page.next).toContain('page=2');
    const one = (await t.member.get(`/api/v1/${slug}/billing-events/`, { query: { cluster_id: 7 } })).body;
    expect(one.results).toEqual([
      expect.objectContaining({ cluster_id: 7, kind: 'limit-reached', detail: 'Stopped because x' }),
    ]);
    const bad = await t.member.get(`/api/v1/${slug}/billing-events/`, {
      query: { event_after: 'yesterday' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.event_after).toBeDefined();
  });
});

describe('v1 usage/cores', () => {
  it("counts a scheduler's machine cores and each worker's threads of live clusters", async () => {
    const t = await team(plain);
    const { db } = plain.server.deps;
    // The member's cluster: a scheduler on an 8-core machine and 1 worker of 1 thread (the factory's).
    const cluster = await createClusterRow(plain, t.ws, t.memberUser);
    await db.insert(instanceSpecs).values({
      clusterId: cluster.id,
      role: 'scheduler',
      backendType: 'in_process',
      instanceType: 'local',
      cores: 8,
      memoryMib: 8192,
      arch: 'x86_64',
    });
    // The admin's, with no machine recorded: its scheduler counts one core.
    await createClusterRow(plain, t.ws, t.adminUser);
    await createClusterRow(plain, t.ws, t.adminUser, { state: 'stopped' });
    const cores = (await t.member.get(`/api/v1/${t.ws.slug}/usage/cores/`)).body;
    expect(cores).toMatchObject({
      cores_used: 8 + 1,
      workspace_cores_used: 8 + 1 + (1 + 1),
      core_limit: 1000,
    });
  });
});
