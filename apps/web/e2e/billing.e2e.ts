import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';

import { StripeFake } from '../../server/test/helpers/stripe-fake';
import { apiAs, createVerifiedUser } from './harness/api';
import { eventually, expectNoConsoleErrors, signIn } from './harness/journeys';
import { consoleSuite } from './harness/suite';

// Stripe is a local fake speaking its API (the server's own test helper); its hosted pages
// (checkout, billing portal) are answered in the browser. A metered minute lasts a quarter of a
// second, so a short cluster run leaves credits and spend enough to cross the banners' thresholds.
const stripe = new StripeFake();
await stripe.start();
const suite = consoleSuite({ env: { ...stripe.env(), CUMULUS_METER_MINUTE_SECONDS: '0.25' } });
afterAll(() => stripe.stop());

/** Real Dask clusters take a while on a loaded two-core machine. */
const CLUSTER_DEADLINE_MS = 150_000;
const STRIPE_PAGES = /^https:\/\/(checkout|billing)\.stripe\.test\//;

/** Stripe's hosted pages, as far as the journey sees them: a page at their address. */
async function answerStripePages(page: Page) {
  await page.route(STRIPE_PAGES, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<title>Stripe (test)</title><h1>Stripe (test)</h1>' }),
  );
}

/** Percentages as the console shows them: one decimal, rounded down. */
const oneDecimalDown = (value: number) => (Math.floor(value * 10 + 1e-7) / 10).toFixed(1);

const noPageScroll = (page: Page) =>
  eventually(async () =>
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0),
  );

describe('Billing', () => {
  it('shows real usage against the limits an admin sets, with the banners, then upgrades through Stripe and back', async () => {
    const base = suite.server.base;
    const user = await createVerifiedUser(base, suite.server.smtp, 'billing');
    const api = await apiAs(base, user);
    const me = await api.call('GET', '/api/v2/user/me');
    const { slug, id: workspaceId } = me.default_account;
    const orgId: number = me.default_organization.id;

    // A real cluster runs until the organization has used two credits this month.
    const clusters = `/api/v2/clusters/account/${slug}/`;
    const cluster = await api.call('POST', clusters, { name: 'metered', workers: 1 });
    const state = async () => (await api.call('GET', `${clusters}id/${cluster.id}`)).current_state.state;
    await eventually(async () => expect(await state()).toBe('ready'), CLUSTER_DEADLINE_MS);
    const usage = () => api.call('GET', `/api/v2/pricing/usage/${orgId}`);
    await eventually(async () => expect((await usage()).credits_used).toBeGreaterThanOrEqual(2), 120_000);
    await api.call('DELETE', `${clusters}id/${cluster.id}?reason=test`);
    await eventually(async () => expect(await state()).toBe('stopped'), CLUSTER_DEADLINE_MS);

    const session = await suite.open({ width: 1280, height: 900 });
    const { page } = session;
    await answerStripePages(page);
    await page.goto('/usage?groupby=cluster');
    await signIn(page, user, { firstTime: true });
    await page
      .getByRole('row')
      .filter({ hasText: `metered (${cluster.id})` })
      .waitFor();

    // A running cluster passes a small workspace credit limit: the limits loop stops it, its page
    // says which limit, and the Workspace Monthly Limit banner appears.
    const capped = await api.call('POST', clusters, { name: 'capped', workers: 0 });
    await page.goto(`/clusters/${capped.id}?account=${slug}`);
    await page.getByRole('heading', { name: 'capped', level: 1 }).waitFor();
    const chip = page.locator('header [data-slot=state-chip]').first();
    await eventually(async () => expect(await chip.textContent()).toBe('Ready'), CLUSTER_DEADLINE_MS);
    const workspaceUsage = () => api.call('GET', `/api/v2/pricing/workspace/${workspaceId}/usage`);
    const wsLimit = Math.ceil((await workspaceUsage()).workspace_credits_used) + 1;
    await api.call('PATCH', `/api/v2/users/workspaces/details/${workspaceId}`, { credit_limit: wsLimit });
    await eventually(async () => expect(await chip.textContent()).toBe('Stopped'), CLUSTER_DEADLINE_MS);
    const reason = `reached its monthly credit limit (${wsLimit} credits); limits reset on `;
    await page.locator('header').getByText(reason, { exact: false }).first().waitFor();
    const limitBanner = page.getByRole('region', { name: 'Workspace Monthly Limit' });
    // The banner may first show the warning of a poll taken just short of 100%.
    await eventually(async () => expect(await limitBanner.getAttribute('data-tone')).toBe('error'), 30_000);
    expect(await limitBanner.textContent()).toContain('has reached its monthly credit limit');
    const stoppedBy = (await api.call('GET', `${clusters}id/${capped.id}`)).current_state.reason;
    expect(stoppedBy).toMatch(/^Stopped because workspace \S+ reached its monthly credit limit/);
    await page.evaluate(() => window.scrollTo(0, 0));
    await session.screenshot('limit-stopped-cluster');
    // The workspace's limit goes again (null: no limit); the banner with it.
    await api.call('PATCH', `/api/v2/users/workspaces/details/${workspaceId}`, { credit_limit: null });
    await limitBanner.waitFor({ state: 'detached', timeout: 30_000 });

    // Metering has caught up with the stopped clusters once usage stays put for a few seconds.
    let used = await usage();
    await eventually(async () => {
      const before = used.credits_used;
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      used = await usage();
      expect(used.credits_used).toBe(before);
    }, 120_000);

    await page.getByLabel('Main navigation').getByRole('link', { name: 'Billing' }).click();
    await page.waitForURL('**/billing');
    await page.getByRole('heading', { name: 'Billing', level: 1 }).waitFor();
    const tier = page.getByTestId('plan-tier');
    expect(await tier.textContent()).toBe('Free');
    const month = page.getByRole('region', { name: 'This month' });
    const creditsUsed = Number(used.credits_used).toLocaleString('en-US', { maximumFractionDigits: 2 });
    await eventually(async () =>
      expect(await month.textContent()).toContain(`${creditsUsed} credits of 10,000 included`),
    );
    expect(await page.locator('[data-slot=banner][data-tone=error]').count()).toBe(0);

    // The admin caps credits at what is used already and spend a little above it.
    const creditLimit = Math.floor(used.credits_used);
    const spendLimit = Math.ceil((used.dollars_spent / 0.85) * 100) / 100;
    await page.getByLabel('Organization credit limit').fill(String(creditLimit));
    await page.getByLabel('Monthly spend limit (USD)').fill(String(spendLimit));
    await page.getByRole('button', { name: 'Save limits' }).click();
    await page.getByText('Limits saved').waitFor();
    const percents = await usage();
    expect(percents.program_credits_usage_percent).toBeGreaterThanOrEqual(100);
    expect(percents.program_dollars_spend_usage_percent).toBeGreaterThanOrEqual(75);
    expect(percents.program_dollars_spend_usage_percent).toBeLessThan(100);
    await api.call('PATCH', `/api/v2/users/workspaces/details/${workspaceId}`, { credit_limit: creditLimit });

    const plan = page.getByRole('region', { name: 'Monthly Plan' });
    await plan.waitFor();
    expect(await plan.getAttribute('data-tone')).toBe('error');
    const percent = `${oneDecimalDown(percents.program_credits_usage_percent)}%`;
    expect(await plan.textContent()).toContain(
      `Your organization has run out of its monthly credits (${percent} used): running clusters will be stopped shortly.`,
    );
    expect(await plan.textContent()).toContain('you can upgrade your plan on the Billing page');
    const spend = page.getByRole('region', { name: 'Monthly spent limit alert' });
    expect(await spend.getAttribute('data-tone')).toBe('warning');
    expect(await spend.textContent()).toContain(
      `${oneDecimalDown(percents.program_dollars_spend_usage_percent)}% of it is spent`,
    );
    // The workspace's limit, set outside the page, shows at the next poll (10 s).
    const workspace = page.getByRole('region', { name: 'Workspace Monthly Limit' });
    await workspace.waitFor({ timeout: 30_000 });
    expect(await workspace.getAttribute('data-tone')).toBe('error');
    await page.evaluate(() => window.scrollTo(0, 0));
    await session.screenshot('billing-banners');
    await session.screenshot('billing-free', { fullPage: true });

    // Upgrade: to Stripe's checkout, which the customer completes; Stripe tells the server and
    // sends the browser back.
    await page.getByRole('button', { name: 'Upgrade to Professional' }).click();
    await page.waitForURL(/^https:\/\/checkout\.stripe\.test\/c\/pay\//);
    const sessionId = page.url().split('/').pop()!;
    const checkout = stripe.sessions.get(sessionId)!;
    expect(checkout.metadata).toMatchObject({ organization_id: String(orgId) });
    const { payload, header } = stripe.sign(stripe.completeCheckout(sessionId));
    const hook = await fetch(`${base}/api/v2/subscriptions/webhooks/stripe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': header },
      body: payload,
    });
    expect(hook.status).toBe(200);
    const customer = checkout.customer as string;
    stripe.addCard(customer);
    const invoice = stripe.addInvoice(customer, 4900);
    const paid = stripe.sign(invoice);
    await fetch(`${base}/api/v2/subscriptions/webhooks/stripe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': paid.header },
      body: paid.payload,
    });
    await page.goto(checkout.success_url as string);
    const thanks = page.getByRole('region', { name: 'Thank you: you are on the Professional plan' });
    await thanks.waitFor();
    await eventually(async () => expect(await tier.textContent()).toBe('Professional'));
    await page
      .getByRole('region', { name: 'Plan' })
      .getByText('Subscription active', { exact: true })
      .waitFor();
    await page.getByRole('region', { name: 'Payment method' }).getByText('visa •••• 4242').waitFor();
    const row = page.getByRole('region', { name: 'Invoices' }).getByRole('row').filter({ hasText: 'CUM-1' });
    await row.waitFor();
    expect(await row.getByRole('link', { name: /View/ }).getAttribute('href')).toBe(
      (invoice.data.object as { hosted_invoice_url: string }).hosted_invoice_url,
    );
    await page
      .getByRole('region', { name: 'Billing events' })
      .getByText('Invoice CUM-1 was paid: 49.00 USD.')
      .waitFor();
    await thanks.getByRole('button', { name: 'Dismiss' }).click();
    await page.waitForURL((url) => !url.search.includes('checkout='));
    await session.screenshot('billing', { fullPage: true });

    // A phone: the page fits, tables scroll inside their cards.
    await page.setViewportSize({ width: 390, height: 844 });
    await noPageScroll(page);
    await session.screenshot('billing-390');
    for (const [region, name] of [
      ['Plan', 'billing-390-plan'],
      ['Limits', 'billing-390-limits'],
      ['Invoices', 'billing-390-invoices'],
    ] as const) {
      await page.getByRole('region', { name: region, exact: true }).scrollIntoViewIfNeeded();
      await session.screenshot(name);
    }
    await page.setViewportSize({ width: 1280, height: 900 });

    // The billing portal is Stripe's page too.
    await page.getByRole('button', { name: 'Manage billing' }).click();
    await page.waitForURL(/^https:\/\/billing\.stripe\.test\//);
    await page.goBack();
    await tier.waitFor();

    // Downgrading keeps the paid period, after a confirmation.
    await page.getByRole('button', { name: 'Downgrade to Free' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Downgrade to Free?' });
    await dialog.getByText('Professional stays until the end of the period you paid for').waitFor();
    await dialog.getByRole('button', { name: 'Downgrade to Free' }).click();
    await page
      .getByRole('region', { name: 'Plan' })
      .getByText(/^Moves to Free on /)
      .waitFor();
    expect(await tier.textContent()).toBe('Professional');
    expectNoConsoleErrors(session.errors);
  }, 480_000);

  it('shows the Professional plan to anyone, and leads a signed-in admin to Billing', async () => {
    const user = await createVerifiedUser(suite.server.base, suite.server.smtp, 'pro');
    const session = await suite.open({ width: 1280, height: 900 });
    const { page } = session;
    await page.goto('/go-cumulus-pro');
    await page.getByRole('heading', { name: 'Room for the whole team', level: 1 }).waitFor();
    await session.screenshot('pro-plan');
    await page.setViewportSize({ width: 390, height: 844 });
    await noPageScroll(page);
    await session.screenshot('pro-plan-390', { fullPage: true });

    // A visitor signs in first, then lands on Billing once.
    await page.getByRole('link', { name: 'Upgrade on the Billing page' }).click();
    await page.waitForURL('**/login');
    await signIn(page, user, { firstTime: true });
    // The shell sends the visitor to Billing in place (a same-document navigation, done by the time
    // the welcome dialog is skipped): poll the address rather than wait for a navigation event.
    await eventually(() => expect(new URL(page.url()).pathname).toBe('/billing'), 60_000);
    await page.getByTestId('plan-tier').waitFor();
    await noPageScroll(page);
    expectNoConsoleErrors(session.errors);
  });
});
