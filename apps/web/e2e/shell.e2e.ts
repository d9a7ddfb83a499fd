import { describe, expect, it } from 'vitest';

import { createVerifiedUser } from './harness/api';
import { eventually, expectNoConsoleErrors, signIn, storedToken } from './harness/journeys';
import { consoleSuite } from './harness/suite';

const suite = consoleSuite();

describe('signed-in shell', () => {
  it('collapses the sidebar with Ctrl+B, and it stays collapsed after a reload', async () => {
    const session = await suite.open();
    const { page, context } = session;
    const user = await createVerifiedUser(suite.server.base, suite.server.smtp, 'shell');

    await page.goto('/');
    await page.waitForURL('**/login');
    await signIn(page, user, { firstTime: true });
    // Root goes to Get Started until the user has created three clusters.
    await page.waitForURL('**/get-started');
    await page.getByRole('heading', { name: 'Get Started', level: 1 }).waitFor();
    const entries = await page.locator('[data-sidebar=menu-button] span').allTextContents();
    for (const entry of [
      'Get Started',
      'Dashboard',
      'Software',
      'Cloud',
      'Billing',
      'Usage',
      'Team',
      'Docs',
      // Everyone who can start a notebook sees the page (a workspace is enough).
      'Notebooks',
    ]) {
      expect(entries).toContain(entry);
    }
    expect(entries).not.toContain('Batch Jobs');
    // Docs is this server's own documentation; no community or support address is configured,
    // so no link leads nowhere (e2e/links.e2e.ts tries a server that configures them).
    expect(
      await page
        .getByRole('link', { name: 'Docs' })
        .and(page.locator('[target=_blank]'))
        .getAttribute('href'),
    ).toBe('/docs');
    expect(entries).not.toContain('Join our Slack');
    expect(entries).not.toContain('Contact an Engineer');
    await page.getByText('Long-lived API tokens are here').waitFor();
    await session.screenshot('shell-get-started');

    // The active entry follows the path.
    const teamEntry = page.getByLabel('Main navigation').getByRole('link', { name: 'Team' });
    await teamEntry.click();
    await page.waitForURL('**/team');
    await eventually(async () => expect(await teamEntry.getAttribute('aria-current')).toBe('page'));

    const sidebar = page.locator('[data-slot=sidebar][data-state]');
    expect(await sidebar.getAttribute('data-state')).toBe('expanded');
    await page.keyboard.press('Control+b');
    await eventually(async () => expect(await sidebar.getAttribute('data-state')).toBe('collapsed'));
    const cookies = await context.cookies();
    expect(cookies.find((cookie) => cookie.name === 'sidebar_state')?.value).toBe('false');
    await session.screenshot('shell-collapsed');

    await page.reload();
    await page.getByRole('heading', { name: 'Team', level: 1 }).waitFor();
    expect(await sidebar.getAttribute('data-state')).toBe('collapsed');
    await page.keyboard.press('Control+b');
    await eventually(async () => expect(await sidebar.getAttribute('data-state')).toBe('expanded'));

    // An unknown path says it is not found, with a link home.
    await page.goto('/no/such/page');
    await page.getByText('404: Could not find that page or resource').waitFor();
    expect(await page.getByRole('link', { name: 'Go home' }).getAttribute('href')).toBe('/');

    // Staff pages tell everyone else so.
    await page.goto('/staff');
    await page
      .getByText(
        'Sorry, only cumulus admins can view this page. If this is a mistake, please contact cumulus support.',
        { exact: true },
      )
      .waitFor();
    await session.screenshot('shell-staff-only');
    expectNoConsoleErrors(session.errors);
  });

  it('logs out: the session ends on the server and protected pages ask to sign in again', async () => {
    const session = await suite.open();
    const { page } = session;
    const user = await createVerifiedUser(suite.server.base, suite.server.smtp, 'logout');

    await page.goto('/profile');
    await signIn(page, user, { firstTime: true });
    await page.getByRole('heading', { name: 'Profile', level: 1 }).waitFor();
    const key = await storedToken(page);
    expect(key).toBeTruthy();
    const me = () =>
      fetch(`${suite.server.base}/api/v2/user/me`, { headers: { authorization: `Token ${key}` } });
    expect((await me()).status).toBe(200);

    await page.getByRole('button', { name: /, account menu$/ }).click();
    await page.getByRole('menuitem', { name: 'Profile' }).waitFor();
    await session.screenshot('shell-user-menu');
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await page.waitForURL((url) => url.pathname === '/login' && url.search === '');
    expect(await storedToken(page)).toBeNull();
    expect((await me()).status).toBe(401);

    await page.goto('/profile');
    await page.waitForURL('**/login?return-to=%2Fprofile');
    expectNoConsoleErrors(session.errors);
  });

  it('shows the sidebar as a slide-over on a phone', async () => {
    const session = await suite.open({ width: 390, height: 844 });
    const { page } = session;
    const user = await createVerifiedUser(suite.server.base, suite.server.smtp, 'phone');

    await page.goto('/login');
    await signIn(page, user, { firstTime: true });
    await page.getByRole('heading', { name: 'Get Started', level: 1 }).waitFor();
    expect(await page.locator('[data-slot=sidebar][data-mobile=true]').count()).toBe(0);
    await page.getByRole('button', { name: 'Toggle sidebar (Ctrl+B)' }).click();
    await page.locator('[data-slot=sidebar][data-mobile=true]').waitFor();
    await session.screenshot('shell-mobile');
    await page.getByRole('link', { name: 'Software' }).click();
    await page.waitForURL('**/software');
    await page.locator('[data-slot=sidebar][data-mobile=true]').waitFor({ state: 'detached' });
    expectNoConsoleErrors(session.errors);
  });
});
