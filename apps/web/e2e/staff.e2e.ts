import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { apiAs, createVerifiedUser, uniqueName } from './harness/api';
import { eventually, expectNoConsoleErrors, signIn } from './harness/journeys';
import { consoleSuite } from './harness/suite';

const STAFF_EMAIL = `${uniqueName('root')}@example.com`;
const suite = consoleSuite({ env: { CUMULUS_STAFF_EMAILS: STAFF_EMAIL } });

/** Real Dask and a real build take a while on a loaded two-core machine. */
const DEADLINE_MS = 150_000;

const staffTab = (page: Page, name: string) => page.getByRole('tab', { name, exact: true });
const row = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text });

describe('Notebooks and Staff', () => {
  it('a user with notebooks lists and stops their notebook clusters; staff manage users, failed clusters, mail and interactions', async () => {
    const { base, smtp } = suite.server;
    const staff = await createVerifiedUser(base, smtp, 'root', { email: STAFF_EMAIL });
    const ada = await createVerifiedUser(base, smtp, 'ada');
    const adaApi = await apiAs(base, ada);
    const staffApi = await apiAs(base, staff);

    // Seeds: Ada runs a notebook cluster, has a cluster fail (its environment cannot be built
    // here) and a client failure.
    const notebook = await adaApi.call('POST', `/api/v2/clusters/account/${ada.username}/`, {
      name: 'analysis-notebook',
      workers: 0,
      tags: { 'cumulus-cluster-type': 'notebook' },
    });
    await adaApi.call('POST', `/api/v2/software-environment/account/${ada.username}`, {
      name: 'conda-only',
      raw_conda: { channels: ['conda-forge'], dependencies: ['numpy'] },
    });
    const failing = await adaApi.call('POST', `/api/v2/clusters/account/${ada.username}/`, {
      name: 'doomed',
      workers: 0,
      env_name: 'conda-only',
    });
    await adaApi.call('POST', '/api/v2/interactions/interaction', {
      action: 'cluster-create',
      version: 1,
      success: false,
      cumulus_version: '0.1.0',
      error_message: 'ValueError: n_workers must be >= 0',
      additional_data: { workspace: ada.username },
    });
    await eventually(async () => {
      const details = await adaApi.call('GET', `/api/v2/clusters/account/${ada.username}/id/${failing.id}`);
      expect(details.current_state.state).toBe('error');
    }, DEADLINE_MS);

    // Staff show Ada the Notebooks page (Staff → Users).
    const session = await suite.open();
    const { page } = session;
    await page.goto('/staff');
    await signIn(page, staff, { firstTime: true });
    await page.getByRole('heading', { name: 'Staff', level: 1 }).waitFor();
    await page.getByRole('searchbox', { name: 'Search users' }).fill(ada.username);
    await page.waitForURL(new RegExp(`[?&]q=${ada.username}`));
    const adaRow = row(page, ada.email);
    await adaRow.waitFor();
    await eventually(async () => expect(await page.getByRole('row').count()).toBe(2));
    const notebooksSwitch = adaRow.getByRole('switch', { name: `Notebooks page: ${ada.username}` });
    expect(await notebooksSwitch.getAttribute('aria-checked')).toBe('false');
    await notebooksSwitch.click();
    await page.getByText(`${ada.username} sees the Notebooks page`).waitFor();
    expect(await notebooksSwitch.getAttribute('aria-checked')).toBe('true');
    await session.screenshot('staff-users');

    // Ada: Notebooks in the sidebar, her notebook cluster with its state, creator, Open and Stop.
    const adaSession = await suite.open();
    const adaPage = adaSession.page;
    await adaPage.goto('/notebooks');
    await signIn(adaPage, ada, { firstTime: true });
    await adaPage.getByLabel('Main navigation').getByRole('link', { name: 'Notebooks' }).waitFor();
    const notebookRow = row(adaPage, 'analysis-notebook');
    await notebookRow.waitFor();
    expect(await row(adaPage, 'doomed').count()).toBe(0);
    expect(await notebookRow.getByRole('cell', { name: ada.username, exact: true }).count()).toBe(1);
    expect(
      await notebookRow.getByRole('link', { name: 'Open analysis-notebook in Jupyter' }).getAttribute('href'),
    ).toBe(`/notebooks/${notebook.id}/open?account=${ada.username}`);
    await adaSession.screenshot('notebooks');
    await notebookRow.getByRole('button', { name: 'Stop analysis-notebook' }).click();
    await adaPage.getByRole('alertdialog').getByRole('button', { name: 'Stop cluster' }).click();
    await eventually(
      async () => expect(await notebookRow.textContent()).toMatch(/Stopping|Stopped/),
      DEADLINE_MS,
    );

    // Staff: users — lock Ada out of everything, unlock her, give and take the staff flag.
    await adaRow.getByRole('button', { name: `Lock ${ada.username}` }).click();
    await adaRow.getByText('Locked', { exact: true }).waitFor();
    const me = () => fetch(`${base}/api/v2/user/me`, { headers: { authorization: `Token ${adaApi.key}` } });
    await eventually(async () => expect((await me()).status).toBe(401));
    await adaRow.getByRole('button', { name: `Unlock ${ada.username}` }).click();
    await adaRow.getByText('Active', { exact: true }).waitFor();
    const again = await apiAs(base, ada);
    await adaRow.getByRole('switch', { name: `Staff: ${ada.username}` }).click();
    await eventually(async () => expect((await again.call('GET', '/api/v2/user/me')).is_staff).toBe(true));
    await adaRow.getByRole('switch', { name: `Staff: ${ada.username}` }).click();
    await eventually(async () => expect((await again.call('GET', '/api/v2/user/me')).is_staff).toBe(false));
    // Never their own account.
    await page.getByRole('searchbox', { name: 'Search users' }).fill(staff.username);
    await row(page, staff.email).waitFor();
    expect(
      await row(page, staff.email)
        .getByRole('button', { name: `Lock ${staff.username}` })
        .isDisabled(),
    ).toBe(true);

    // Organizations: every one, by name; open one on the Team page.
    await staffTab(page, 'Organizations').click();
    await page.getByRole('combobox', { name: 'Search organizations' }).fill(ada.username);
    const organizationRow = row(page, ada.username);
    await organizationRow.getByRole('button', { name: `Open ${ada.username} on the Team page` }).waitFor();
    await session.screenshot('staff-organizations');
    await organizationRow.getByRole('button', { name: `Open ${ada.username} on the Team page` }).click();
    await page.waitForURL('**/team');
    await page.getByRole('combobox', { name: `Organization: ${ada.username}` }).waitFor();
    // Staff have no workspace there: the sidebar says so, and the Dashboard lists Ada's clusters
    // with Create cluster unavailable, saying why on the page.
    const nav = page.getByLabel('Main navigation');
    await nav
      .getByRole('button', { name: `Organization: ${ada.username}` })
      .filter({ hasText: 'No workspace of yours' })
      .waitFor();
    await nav.getByRole('link', { name: 'Dashboard' }).click();
    await page.getByText(`Clusters in ${ada.username}`, { exact: true }).waitFor();
    await page.getByRole('combobox', { name: `Scope: ${ada.username}` }).waitFor();
    await page.getByRole('link', { name: 'analysis-notebook' }).waitFor();
    await page
      .getByRole('note')
      .filter({
        hasText: `None of your workspaces is in ${ada.username}: pick another scope to create a cluster.`,
      })
      .waitFor();
    expect(await page.getByRole('button', { name: 'Create cluster' }).first().isDisabled()).toBe(true);
    await session.screenshot('staff-organization-dashboard');

    // Clusters needing attention: the failed one, until marked seen.
    await page.goto('/staff?tab=clusters');
    const doomed = row(page, 'doomed');
    await doomed.waitFor();
    expect(await doomed.textContent()).toContain('Error');
    await session.screenshot('staff-clusters');
    await doomed.getByRole('button', { name: 'Mark seen: doomed' }).click();
    await doomed.waitFor({ state: 'detached' });
    await page.getByRole('tab', { name: 'Seen' }).click();
    await row(page, 'doomed').getByText(staff.username).waitFor();

    // Mail: the outbox, each email readable.
    await staffTab(page, 'Mail').click();
    const outbox = page.getByRole('list', { name: 'Outbox' });
    const verification = outbox
      .getByRole('listitem')
      .filter({ hasText: `To ${ada.email}` })
      .first();
    await verification.locator('summary').click();
    await verification.getByText('/verify-email-confirm/', { exact: false }).waitFor();
    await session.screenshot('staff-mail');

    // User interactions: Ada's failure, found by filters completed from what was recorded.
    await staffTab(page, 'Interactions').click();
    const filter = page.getByRole('combobox', { name: 'Filter interactions' });
    await filter.fill('success:false');
    await filter.press('Enter');
    await page.waitForURL(/filters=/);
    await filter.fill(`user:${ada.username}`);
    await filter.press('Enter');
    const failure = row(page, 'cluster-create');
    await failure.waitFor();
    expect(await failure.textContent()).toContain('n_workers must be >= 0');
    expect(await page.getByRole('row').count()).toBe(2);
    await page.getByRole('button', { name: `Remove filter user: ${ada.username}` }).waitFor();
    await session.screenshot('staff-interactions');

    // Staff calls answer staff only.
    expect(
      (await staffApi.call('GET', '/api/v2/interactions/user-interactions/hello')).total,
    ).toBeGreaterThan(0);
    const refused = await fetch(`${base}/api/v2/staff/users`, {
      headers: { authorization: `Token ${again.key}` },
    });
    expect(refused.status).toBe(403);

    expectNoConsoleErrors(adaSession.errors);
    expectNoConsoleErrors(session.errors);
  }, 600_000);
});
