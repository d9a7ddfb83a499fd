import { describe, expect, it } from 'vitest';

import { createVerifiedUser } from './harness/api';
import { eventually, expectNoConsoleErrors, signIn } from './harness/journeys';
import { consoleSuite } from './harness/suite';

const suite = consoleSuite();

const me = (base: string, token: string) =>
  fetch(`${base}/api/v2/user/me`, { headers: { authorization: `ApiToken ${token}` } });

describe('Profile', () => {
  it('creates an API token, copies it, uses it and revokes it', async () => {
    const session = await suite.open();
    const { page } = session;
    const user = await createVerifiedUser(suite.server.base, suite.server.smtp, 'tokens');

    await page.goto('/profile');
    await signIn(page, user, { firstTime: true });
    await page.waitForURL('**/profile');
    await page.getByRole('heading', { name: 'Profile', level: 1 }).waitFor();
    await page.getByText('No active API tokens').waitFor();
    const sections = await page.locator('[data-slot=page-section] h2').allTextContents();
    expect(sections).toEqual([
      'Default Workspace',
      'API Tokens',
      'Username',
      'Password',
      'Profile Information',
      'GitHub Access Token',
      'Display Time Zone',
      'Chart Color Scheme',
    ]);
    await session.screenshot('profile');

    await page.getByRole('button', { name: 'Create token' }).click();
    await page.waitForURL('**/profile?createTokenDialog=true');
    const dialog = page.getByRole('dialog', { name: 'Create API token' });
    await dialog.getByLabel('Label (optional)').fill('laptop');
    await dialog.getByLabel('Days to expiration (optional)').fill('abc');
    await dialog.getByRole('button', { name: 'Create token' }).click();
    await dialog.getByText('Days to expiration must be a number').waitFor();
    await dialog.getByLabel('Days to expiration (optional)').fill('30');
    await dialog.getByRole('button', { name: 'Create token' }).click();

    const created = page.getByRole('dialog', { name: 'API token created' });
    const token = (await created.getByTestId('new-token').textContent())?.trim() ?? '';
    expect(token).toMatch(/^[a-f0-9]+-[a-f0-9]+$/);
    await created.getByRole('button', { name: 'Copy token' }).click();
    await created.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
    await session.screenshot('profile-token-created');
    // The confirmation lasts 2 s.
    await created.getByRole('button', { name: 'Copy token' }).waitFor({ timeout: 10_000 });
    await created.getByRole('button', { name: 'Done' }).click();
    await created.waitFor({ state: 'detached' });

    const row = page.getByRole('row').filter({ hasText: 'laptop' });
    await row.waitFor();
    expect(await row.textContent()).toContain(token.split('-')[0]);
    expect((await me(suite.server.base, token)).status).toBe(200);

    await row.getByRole('button', { name: 'Revoke token laptop' }).click();
    await row.waitFor({ state: 'detached' });
    await page.getByText('No active API tokens').waitFor();
    await eventually(async () => expect((await me(suite.server.base, token)).status).toBe(401));
    expectNoConsoleErrors(session.errors);
  });

  it('opens the token dialog from ?createTokenDialog=true and checks the username rules', async () => {
    const session = await suite.open();
    const { page } = session;
    const user = await createVerifiedUser(suite.server.base, suite.server.smtp, 'rules');
    const other = await createVerifiedUser(suite.server.base, suite.server.smtp, 'taken');

    await page.goto('/profile?createTokenDialog=true');
    await signIn(page, user);
    // One modal at a time: the page's own dialog first, the welcome dialog once it is closed.
    await page.getByRole('dialog', { name: 'Create API token' }).waitFor();
    await page.keyboard.press('Escape');
    await page.waitForURL('**/profile');
    const welcome = page.getByRole('dialog', { name: 'Welcome to Cumulus' });
    await welcome.getByRole('button', { name: 'Skip' }).click();
    await welcome.waitFor({ state: 'detached' });

    await page.locator('#username').getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Username').fill('not a slug!');
    await page.getByRole('button', { name: 'Save' }).click();
    await page
      .getByText('Enter a valid "slug" consisting of letters, numbers, underscores or hyphens.')
      .waitFor();
    await page.getByLabel('Username').fill(other.username);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('That username already exists.').waitFor();
    await session.screenshot('profile-username-taken');

    await page.locator('#profile-information').getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit profile' });
    await edit.getByLabel('Phone number').fill('call me');
    await edit.getByLabel('Email').fill('');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.getByText('Can contain numbers and hyphens').waitFor();
    await edit.getByText('Email is required').waitFor();
    await edit.getByLabel('Phone number').fill('+1 555-0100');
    await edit.getByLabel('Email').fill(user.email);
    await edit.getByLabel('Company').fill('Analytical Engines');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'detached' });
    await page.getByText('Analytical Engines').waitFor();
    expectNoConsoleErrors(session.errors);
  });
});
