import path from 'node:path';

import { describe, expect, it } from 'vitest';
import { createVerifiedUser, PASSWORD, uniqueName } from './harness/api';
import { ARTIFACTS } from './harness/browser';
import { eventually, expectNoConsoleErrors, signIn } from './harness/journeys';
import { consoleSuite } from './harness/suite';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

/** Whether the page scrolls sideways (what a 390 px screen must never do). */
const overflows = (page: import('playwright-core').Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

describe('a server with nothing configured: no mail server, no support address, docs of its own', () => {
  // No CUMULUS_SMTP_URL: mail is printed in the server log (which the journey reads, as its operator would).
  const suite = consoleSuite({ env: { CUMULUS_SMTP_URL: '', CUMULUS_LOG_LEVEL: 'info' } });

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
    expect(await docs.getByRole('heading', { level: 1, name: 'Cumulus' }).count()).toBe(1);
    expect(await docs.getByRole('heading', { level: 2, name: 'Configuration' }).count()).toBe(1);
    await docs.screenshot({ path: path.join(ARTIFACTS, 'docs-readme.png') });
    await docs.close();
    expectNoConsoleErrors(session.errors);
  });

  it('serves its documentation at phone width without sideways scrolling', async () => {
    const session = await suite.open(PHONE);
    await session.page.goto('/docs');
    await session.page.getByRole('heading', { level: 2, name: 'Configuration' }).waitFor();
    expect(await overflows(session.page)).toBe(false);
    await session.screenshot('docs-readme-390');
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
