import path from 'node:path';

import { describe, expect, it } from 'vitest';
import { apiAs, confirmEmail, createVerifiedUser, PASSWORD, register, uniqueName } from './harness/api';
import { ARTIFACTS } from './harness/browser';
import { eventually, expectNoConsoleErrors, pickOrganization, signIn } from './harness/journeys';
import { consoleSuite } from './harness/suite';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

const toast = (page: import('playwright-core').Page, text: string) =>
  page.locator('[data-sonner-toast]').filter({ hasText: text }).first().waitFor();

/** Whether the page scrolls sideways (what a 390 px screen must never do). */
const overflows = (page: import('playwright-core').Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

describe('a server with nothing configured: no mail server, no support address, docs of its own', () => {
  // No CUMULUS_SMTP_URL: mail is printed in the server log (which the journey reads, as its
  // operator would), at the harness's quiet level (warn) too.
  const suite = consoleSuite({ env: { CUMULUS_SMTP_URL: '' } });

  /** Signs up over HTTP and confirms with the link the server log shows: a user who can sign in. */
  async function verifiedFromLog(prefix: string) {
    const username = uniqueName(prefix);
    const email = `${username}@example.com`;
    await register(suite.server.base, username, email);
    let key = '';
    await eventually(() => {
      key =
        new RegExp(`to=${email}[^]*?verify-email-confirm/([a-f0-9]+)`).exec(suite.server.log())?.[1] ?? '';
      expect(key).not.toBe('');
    });
    await confirmEmail(suite.server.base, key);
    return { username, email, password: PASSWORD };
  }

  it('offers no sign-in provider, terms or demo link, and says the verification email is in the server log', async () => {
    const phone = await suite.open(PHONE);
    await phone.page.goto('/login');
    await phone.page.getByRole('button', { name: 'Sign in' }).waitFor();
    // The deployment call has answered once the page asked it; nothing it did not configure is shown.
    await phone.page.waitForLoadState('networkidle');
    expect(await phone.page.getByRole('button', { name: /Continue with/ }).count()).toBe(0);
    expect(await phone.page.getByRole('link', { name: 'terms of service' }).count()).toBe(0);
    expect(await overflows(phone.page)).toBe(false);
    await phone.screenshot('login-nothing-configured-390');

    const session = await suite.open(DESKTOP);
    const { page } = session;
    await page.goto('/signup');
    await page.getByRole('button', { name: 'Create Account' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.getByRole('link', { name: 'Book a demo' }).count()).toBe(0);
    const username = uniqueName('nomail');
    const email = `${username}@example.com`;
    await page.getByLabel('Full name').fill('Grace Hopper');
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Work email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.waitForURL('**/verify-email-sent');
    await page.getByText('No email was sent').waitFor();
    await page
      .getByText(
        `This server has no mail server configured, so the verification email to ${email} was not sent: it is printed, with its link, in the server’s log`,
      )
      .waitFor();
    expect(await page.getByText('We sent a verification email').count()).toBe(0);
    await session.screenshot('verify-email-sent-no-mail-server');
    await phone.page.goto('/verify-email-sent');
    await phone.page.getByText('No email was sent').waitFor();
    expect(await overflows(phone.page)).toBe(false);
    await phone.screenshot('verify-email-sent-no-mail-server-390');

    // The operator finds it in the log as one framed block, the link alone on its line.
    let link = '';
    await eventually(() => {
      const block = suite.server
        .log()
        .split(/\n(?=\S)/)
        .find((entry) => entry.includes('email kept, not sent') && entry.includes(`to=${email}`));
      expect(block).toBeDefined();
      expect(block).toMatch(/\n {4}┌─+\n/);
      expect(block).toMatch(/\n {4}└─+/);
      link = /\n {4}│ (http:\/\/\S+\/verify-email-confirm\/\S+)\n/.exec(block ?? '')?.[1] ?? '';
      expect(link).not.toBe('');
    });
    // Signing in before confirming: the spec's words, and where the confirmation email really is.
    await page.goto('/login');
    await page.getByLabel('Username or email').fill(username);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page
      .getByText(
        'We need to confirm your email address. Please check your email or request another confirmation email.',
      )
      .waitFor();
    await page
      .getByText(
        'This server has no mail server configured, so your confirmation email was not sent: it is printed, with its link, in the server’s log',
        { exact: false },
      )
      .waitFor();
    await session.screenshot('login-unverified-no-mail-server');

    await page.goto(link);
    await page.getByText('Email Verified').waitFor();

    // Signed in: Docs is the server's own; there is no community or support link.
    await page.goto('/login');
    await signIn(page, { username, password: PASSWORD }, { firstTime: true });
    await page.getByRole('heading', { name: 'Get Started', level: 1 }).waitFor();
    const support = await page.locator('[data-sidebar=menu-button] span').allTextContents();
    expect(support).toContain('Docs');
    expect(support).not.toContain('Join our Slack');
    expect(support).not.toContain('Contact an Engineer');
    const [docs] = await Promise.all([
      page.context().waitForEvent('page'),
      page.getByRole('link', { name: 'Docs' }).click(),
    ]);
    await docs.waitForLoadState();
    expect(new URL(docs.url()).pathname).toBe('/docs');
    expect(await docs.getByRole('heading', { level: 1, name: 'Cumulus documentation' }).count()).toBe(1);
    await docs.screenshot({ path: path.join(ARTIFACTS, 'docs-index.png') });
    // The navigation leads to every page; the operator's page has the configuration.
    const nav = docs.getByRole('navigation', { name: 'Documentation' });
    await nav.getByRole('link', { name: 'Operations and configuration' }).click();
    await docs.getByRole('heading', { level: 2, name: 'Configuration' }).waitFor();
    expect(new URL(docs.url()).pathname).toBe('/docs/operations');
    expect(await docs.title()).toBe('Operations and configuration · Cumulus docs');
    await docs.screenshot({ path: path.join(ARTIFACTS, 'docs-operations.png'), fullPage: false });
    await docs.close();
    expectNoConsoleErrors(session.errors);
  });

  it('invites a teammate and resends the invitation, each toast saying the email is in the server log', async () => {
    const { base } = suite.server;
    const admin = await verifiedFromLog('admin');
    const api = await apiAs(base, admin);
    const organization = uniqueName('Labs ').slice(0, 30);
    const created = await api.call('POST', '/api/v2/users/organizations/create', { name: organization });
    await api.call('POST', '/api/v2/users/workspaces/', {
      name: uniqueName('ml-').slice(0, 30),
      organization_id: created.id,
    });
    const teammate = `${uniqueName('grace')}@example.com`;

    const session = await suite.open(DESKTOP);
    const { page } = session;
    await page.goto('/team');
    await signIn(page, admin, { firstTime: true });
    await pickOrganization(page, organization);
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('menu').getByRole('menuitem', { name: 'Teammate' }).click();
    await page.getByRole('heading', { name: 'Add Member', level: 1 }).waitFor();
    await page.getByLabel('Username or Email').fill(teammate);
    await page.getByRole('button', { name: 'Add Member' }).click();
    await toast(page, `Invitation to ${teammate} printed in the server log (no mail server is configured)`);
    await session.screenshot('team-invite-no-mail-server');
    expect(await page.getByText(`Invitation sent to ${teammate}`).count()).toBe(0);
    const invitations = () =>
      suite.server
        .log()
        .split(/\n(?=\S)/)
        .filter((entry) => entry.includes('email kept, not sent') && entry.includes(`to=${teammate}`));
    await eventually(() => expect(invitations()).toHaveLength(1));
    expect(invitations()[0]).toMatch(/\n {4}│ http:\/\/\S+\/signup\?invite=\S+\n/);

    const inviteRow = page.getByRole('row').filter({ hasText: teammate });
    await inviteRow.getByRole('button', { name: `Resend invite to ${teammate}` }).click();
    await toast(page, 'Invite email printed in the server log again (no mail server is configured)');
    expect(await page.getByText('Invite email resent').count()).toBe(0);
    await eventually(() => expect(invitations()).toHaveLength(2));
    expectNoConsoleErrors(session.errors);
  });

  it('serves its documentation at phone width without sideways scrolling', async () => {
    const session = await suite.open(PHONE);
    await session.page.goto('/docs');
    await session.page.getByRole('heading', { level: 1, name: 'Cumulus documentation' }).waitFor();
    expect(await overflows(session.page)).toBe(false);
    await session.screenshot('docs-index-390');
    // Wide tables scroll in a box of their own, not the page.
    await session.page.goto('/docs/operations');
    await session.page.getByRole('heading', { level: 2, name: 'Configuration' }).waitFor();
    expect(await overflows(session.page)).toBe(false);
    await session.screenshot('docs-operations-390');
  });

  it('previews alert markdown publicly, keeping only the links the rule allows', async () => {
    for (const [viewport, name] of [
      [DESKTOP, 'tag-alert-content-preview'],
      [PHONE, 'tag-alert-content-preview-390'],
    ] as const) {
      const session = await suite.open(viewport);
      const { page } = session;
      const message =
        'The scheduler ran out of memory on **etl-worker-3**.\n\n- See [its logs](/clusters)\n- Read [the Dask docs](https://docs.dask.org)\n- Not [this](javascript:alert(document.cookie))';
      await page.goto(
        `/tag-alert-content-preview?level=40&title=${encodeURIComponent('Cluster etl failed')}&message=${encodeURIComponent(message)}`,
      );
      const preview = page.getByRole('alert').filter({ hasText: 'Cluster etl failed' });
      await preview.waitFor();
      expect(await preview.getByRole('link', { name: 'its logs' }).getAttribute('href')).toBe('/clusters');
      expect(await preview.getByRole('link', { name: 'the Dask docs' }).getAttribute('target')).toBe(
        '_blank',
      );
      expect(await preview.getByRole('link', { name: 'this' }).getAttribute('href')).toBe('#');
      await page.getByRole('link', { name: 'Sign in' }).waitFor();
      expect(await overflows(page)).toBe(false);
      await session.screenshot(name);
      expectNoConsoleErrors(session.errors);
    }
  });
});

describe('a server that configures its links', () => {
  const suite = consoleSuite({
    env: {
      CUMULUS_SUPPORT_EMAIL: 'help@example.org',
      CUMULUS_COMMUNITY_URL: 'https://example.slack.com/join/cumulus',
      CUMULUS_TERMS_URL: 'https://example.org/terms',
      CUMULUS_BOOK_DEMO_URL: 'https://example.org/demo',
    },
  });

  it('shows each configured link, and still no sign-in provider it has not', async () => {
    const session = await suite.open(DESKTOP);
    const { page } = session;
    await page.goto('/signup');
    expect(await page.getByRole('link', { name: 'Book a demo' }).getAttribute('href')).toBe(
      'https://example.org/demo',
    );
    await page.goto('/login');
    expect(await page.getByRole('link', { name: 'terms of service' }).getAttribute('href')).toBe(
      'https://example.org/terms',
    );
    expect(await page.getByRole('button', { name: /Continue with/ }).count()).toBe(0);

    const user = await createVerifiedUser(suite.server.base, suite.server.smtp, 'links');
    await signIn(page, user, { firstTime: true });
    await page.getByRole('heading', { name: 'Get Started', level: 1 }).waitFor();
    const slack = page.getByRole('link', { name: 'Join our Slack' });
    expect(await slack.getAttribute('href')).toBe('https://example.slack.com/join/cumulus');
    expect(await slack.getAttribute('target')).toBe('_blank');
    expect(await page.getByRole('link', { name: 'Contact an Engineer' }).getAttribute('href')).toBe(
      'mailto:help@example.org',
    );
    await session.screenshot('sidebar-links-configured');
    expectNoConsoleErrors(session.errors);
  });
});
