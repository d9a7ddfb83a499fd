import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { apiAs, createVerifiedUser, uniqueName } from './harness/api';
import { eventually, expectNoConsoleErrors, pickOrganization, signIn } from './harness/journeys';
import { consoleSuite } from './harness/suite';

const suite = consoleSuite();

const teamName = (prefix: string) => uniqueName(prefix).slice(0, 30);

const sidebarWorkspace = (page: Page, name: string) =>
  page.getByLabel('Main navigation').getByRole('button', { name: `Workspace: ${name}` });

const sidebarOrganization = (page: Page, name: string) =>
  page.getByLabel('Main navigation').getByRole('button', { name: `Organization: ${name}` });

/** The Dashboard's clusters, by name. */
const listed = (page: Page) => page.locator('table').getByRole('link').allTextContents();

describe('scope agreement', () => {
  it('the scope shown, the clusters listed and the workspace a cluster is created in agree: Team → Dashboard → Create', async () => {
    const { base, smtp } = suite.server;
    const user = await createVerifiedUser(base, smtp, 'scope');
    const api = await apiAs(base, user);
    // A cluster of the user's own workspace (stopped at once: it stays listed).
    const own = await api.call('POST', `/api/v2/clusters/account/${user.username}/`, {
      name: 'personal-one',
      workers: 0,
      tags: { team: 'ml' },
    });
    await api.call('DELETE', `/api/v2/clusters/account/${user.username}/id/${own.id}?reason=test`);
    // An organization with a workspace of the user's, and one with none.
    const acme = teamName('Acme ');
    const organization = await api.call('POST', '/api/v2/users/organizations/create', { name: acme });
    const acmeWorkspace = teamName('acme-data-');
    await api.call('POST', '/api/v2/users/workspaces/', {
      name: acmeWorkspace,
      organization_id: organization.id,
    });
    const empty = teamName('Empty ');
    await api.call('POST', '/api/v2/users/organizations/create', { name: empty });

    const session = await suite.open();
    const { page } = session;
    await page.goto('/clusters');
    await signIn(page, user, { firstTime: true });
    await page.getByRole('link', { name: 'personal-one' }).waitFor();
    await sidebarWorkspace(page, user.username).waitFor();

    // Picking the organization on the Team page…
    await page.getByLabel('Main navigation').getByRole('link', { name: 'Team' }).click();
    await pickOrganization(page, acme);
    // …moves the Dashboard and the sidebar to it, visibly.
    await page.getByLabel('Main navigation').getByRole('link', { name: 'Dashboard' }).click();
    await page.getByText(`Clusters in ${acme}`, { exact: true }).waitFor();
    await page.getByRole('combobox', { name: `Scope: ${acme}` }).waitFor();
    await sidebarWorkspace(page, acmeWorkspace).waitFor();
    await page.getByText(`No clusters in ${acme} yet`).waitFor();
    await session.screenshot('scope-organization-empty');

    // Create cluster creates where the list looks, and says where.
    await page.getByRole('button', { name: 'Create cluster' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Create cluster' });
    expect(await dialog.getByRole('combobox', { name: 'Workspace' }).textContent()).toBe(
      `${acmeWorkspace} (${acme})`,
    );
    await dialog.getByText(`A Dask scheduler and workers in ${acmeWorkspace}.`, { exact: false }).waitFor();
    await session.screenshot('scope-create-dialog');
    await dialog.getByLabel('Name').fill('org-one');
    await dialog.getByLabel('Workers').fill('0');
    await dialog.getByRole('button', { name: 'Create cluster' }).click();
    await page.waitForURL(new RegExp(`/clusters/\\d+\\?account=${acmeWorkspace}`));
    const orgCluster = Number(new URL(page.url()).pathname.split('/')[2]);

    await page.getByLabel('Main navigation').getByRole('link', { name: 'Dashboard' }).click();
    await page.getByRole('link', { name: 'org-one' }).waitFor();
    expect(await listed(page)).not.toContain('personal-one');
    // The same after a reload: scope, sidebar and list still agree.
    await page.reload();
    await page.getByRole('link', { name: 'org-one' }).waitFor();
    await page.getByRole('combobox', { name: `Scope: ${acme}` }).waitFor();
    await sidebarWorkspace(page, acmeWorkspace).waitFor();
    await session.screenshot('scope-organization-listed');

    // Picking the personal workspace in the sidebar lists it.
    await sidebarWorkspace(page, acmeWorkspace).click();
    await page.getByRole('menuitem', { name: new RegExp(`^${user.username}`) }).click();
    await page.getByRole('combobox', { name: `Scope: ${user.username}` }).waitFor();
    await page.getByRole('link', { name: 'personal-one' }).waitFor();
    await eventually(async () => expect(await listed(page)).not.toContain('org-one'));
    // The tag filter completes from the tags of this scope's clusters (tags/labels, tags/values).
    const filter = page.getByRole('combobox', { name: 'Filter clusters' });
    const completions = () =>
      page
        .locator('datalist#cluster-tag-completions option')
        .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
    await filter.fill('tag:');
    await eventually(async () => expect(await completions()).toEqual(['tag:team']));
    await filter.fill('tag:team:');
    await eventually(async () => expect(await completions()).toEqual(['tag:team:ml']));
    await filter.fill('tag:team:ml');
    await filter.press('Enter');
    await page.getByRole('list', { name: 'Active filters' }).getByText('tag: team:ml').waitFor();
    await page.getByRole('link', { name: 'personal-one' }).waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();

    // An organization with none of the user's workspaces: the sidebar, the scope picker and the
    // Dashboard all show it, and Create cluster says, on the page, why it cannot.
    await page.getByLabel('Main navigation').getByRole('link', { name: 'Team' }).click();
    await pickOrganization(page, empty);
    await sidebarOrganization(page, empty).waitFor();
    await page.getByLabel('Main navigation').getByRole('link', { name: 'Dashboard' }).click();
    const why = `None of your workspaces is in ${empty}: pick another scope to create a cluster.`;
    const agreeOnEmpty = async () => {
      await page.getByText(`Clusters in ${empty}`, { exact: true }).waitFor();
      await page.getByRole('combobox', { name: `Scope: ${empty}` }).waitFor();
      await sidebarOrganization(page, empty).waitFor();
      expect(await sidebarOrganization(page, empty).textContent()).toContain('No workspace of yours');
      expect(
        await page
          .getByLabel('Main navigation')
          .getByRole('button', { name: /^Workspace: / })
          .count(),
      ).toBe(0);
      await page.getByText(`No clusters in ${empty} yet`).waitFor();
      await page.getByRole('note').filter({ hasText: why }).waitFor();
      const create = page.getByRole('button', { name: 'Create cluster' }).first();
      expect(await create.isDisabled()).toBe(true);
      expect(
        await create
          .locator('xpath=ancestor::span[@data-disabled-reason][1]')
          .getAttribute('data-disabled-reason'),
      ).toBe(why);
    };
    await agreeOnEmpty();
    await session.screenshot('scope-organization-without-workspace');
    await page.reload();
    await agreeOnEmpty();
    // From the sidebar, a workspace of the user's brings everything back to it.
    await sidebarOrganization(page, empty).click();
    await page.getByRole('menuitem', { name: new RegExp(`^${user.username}`) }).click();
    await page.getByRole('combobox', { name: `Scope: ${user.username}` }).waitFor();
    await sidebarWorkspace(page, user.username).waitFor();
    await page.getByRole('link', { name: 'personal-one' }).waitFor();
    expect(await page.getByRole('note').filter({ hasText: why }).count()).toBe(0);

    await api.call('DELETE', `/api/v2/clusters/account/${acmeWorkspace}/id/${orgCluster}?reason=done`);
    expectNoConsoleErrors(session.errors);
  }, 300_000);
});
