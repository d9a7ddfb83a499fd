import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { apiAs, createVerifiedUser, uniqueName } from './harness/api';
import { ARTIFACTS } from './harness/browser';
import { eventually, expectNoConsoleErrors, signIn } from './harness/journeys';
import { expectFits } from './harness/layout';
import { consoleSuite } from './harness/suite';

const STAFF_EMAIL = `${uniqueName('root')}@example.com`;
// Jupyter from an origin of each notebook's own (Chromium takes any *.localhost for this machine).
const suite = consoleSuite({
  env: { CUMULUS_STAFF_EMAILS: STAFF_EMAIL, CUMULUS_PROXY_ORIGIN: 'http://*.localhost:{port}' },
});

/** Real Dask and Jupyter take a while on a loaded two-core machine. */
const DEADLINE_MS = 240_000;

describe('Notebooks', () => {
  it('starts a notebook from the console and opens its Jupyter through the server; sizes a new cluster', {
    timeout: 600_000,
  }, async () => {
    const { base, smtp } = suite.server;
    await createVerifiedUser(base, smtp, 'root', { email: STAFF_EMAIL });
    const ada = await createVerifiedUser(base, smtp, 'ada');
    const adaApi = await apiAs(base, ada);

    const session = await suite.open();
    const { page } = session;
    await page.goto('/notebooks');
    await signIn(page, ada, { firstTime: true });
    // No staff switch: Ada can start a notebook, so she sees the page in the sidebar.
    await page.getByRole('navigation').getByRole('link', { name: 'Notebooks' }).waitFor();
    await page.getByRole('heading', { name: 'Notebooks', level: 1 }).waitFor();
    await page.getByText('cumulus notebook start --name my-notebook --sync').first().waitFor();

    // New notebook: name, software, size.
    await page.getByRole('button', { name: 'New notebook' }).click();
    const dialog = page.getByRole('dialog', { name: 'New notebook' });
    await dialog.getByLabel('Name').fill('daily-notes');
    await dialog.getByRole('combobox', { name: 'Size' }).waitFor();
    await session.screenshot('notebooks-new-notebook');
    await dialog.getByRole('button', { name: 'Start notebook' }).click();
    await dialog.waitFor({ state: 'detached' });
    const row = page.getByRole('row').filter({ hasText: 'daily-notes' });
    await row.waitFor();
    await eventually(async () => expect(await row.textContent()).toContain('Ready'), DEADLINE_MS);
    await session.screenshot('notebooks-list');

    // Open: a new tab that goes on to Jupyter, served through this server with Ada's pass.
    const open = row.getByRole('link', { name: 'Open daily-notes in Jupyter' });
    const [tab] = await Promise.all([page.context().waitForEvent('page'), open.click()]);
    await eventually(
      async () =>
        expect(tab.url()).toMatch(
          /^http:\/\/cluster-\d+\.localhost:\d+\/dashboard\/\d+\/jupyter\/(lab|tree)/,
        ),
      DEADLINE_MS,
    );
    await tab.waitForLoadState('load');
    await eventually(async () => expect(await tab.title()).toMatch(/Jupyter|Home Page|JupyterLab/), 60_000);
    // Jupyter's own scripts work there (its file list comes from its API, through the proxy)...
    await tab
      .getByText('The notebook list is empty.')
      .or(tab.locator('#notebook_list .item_link, .jp-DirListing-item'))
      .first()
      .waitFor({ timeout: 60_000 });
    // ...and see nothing of the console's: another origin.
    expect(await tab.evaluate(() => localStorage.getItem('cumulus.token'))).toBeNull();
    await tab.waitForTimeout(2000);
    await tab.screenshot({ path: path.join(ARTIFACTS, 'notebooks-jupyter.png') });

    // The same page on the console's origin (where programs call it) runs sandboxed: its scripts
    // reach neither the console's storage nor its cookies.
    const notebookId = Number(/\/dashboard\/(\d+)\//.exec(tab.url())![1]);
    const link = new URL(
      (await adaApi.call('GET', `/api/v2/clusters/account/${ada.username}/id/${notebookId}`)).scheduler
        .jupyter_address,
    );
    const consolePage = await page.context().newPage();
    const served = await consolePage.goto(`${base}${link.pathname}${link.search}`);
    expect(served?.status(), await served?.text()).toBe(200);
    expect((await served?.allHeaders())?.['content-security-policy']).toContain('sandbox');
    const reach = await consolePage.evaluate(() => {
      try {
        return localStorage.getItem('cumulus.token') ?? 'no token';
      } catch (e) {
        return (e as Error).name;
      }
    });
    expect(reach).toBe('SecurityError');
    expect(await page.evaluate(() => localStorage.getItem('cumulus.token'))).toBeTruthy();
    await consolePage.close();
    const details = await adaApi.call('GET', `/api/v2/clusters/paginate-notebook?account=${ada.username}`);
    expect(details.items[0].tags['cumulus-cluster-type']).toBe('notebook');
    await tab.close();

    // The Dashboard's Create cluster sizes each worker.
    await page.goto('/clusters');
    await page.getByRole('button', { name: 'Create cluster' }).first().click();
    const create = page.getByRole('dialog', { name: 'Create cluster' });
    await create.getByRole('combobox', { name: 'Worker cores' }).click();
    await page.getByRole('option', { name: '2 cores' }).click();
    await create.getByRole('combobox', { name: 'Worker memory' }).click();
    await page.getByRole('option', { name: '1 GiB' }).click();
    await session.screenshot('create-cluster-worker-size');
    await create.getByLabel('Workers').fill('1');
    await create.getByLabel('Name').fill('sized');
    await create.getByRole('button', { name: 'Create cluster' }).click();
    await page.waitForURL(/\/clusters\/\d+/);
    const id = Number(new URL(page.url()).pathname.split('/')[2]);
    const specs = await adaApi.call('GET', `/api/v2/instance_specs/account/${ada.username}/`);
    const worker = specs.items.find((s: any) => s.cluster_id === id && s.role === 'worker');
    expect(worker).toMatchObject({ dask_threads: 2, memory_mib: 1024, cores: 2 });
    await adaApi.call('DELETE', `/api/v2/clusters/account/${ada.username}/id/${id}`);

    // 390 px wide: the Notebooks page, its dialog and Create cluster fit.
    const phone = await suite.open({ width: 390, height: 844 });
    await phone.page.goto('/notebooks');
    await signIn(phone.page, ada);
    await phone.page.getByRole('row').filter({ hasText: 'daily-notes' }).waitFor();
    await expectFits(phone.page, 'Notebooks at 390 px');
    await phone.screenshot('notebooks-list-390');
    await phone.page.getByRole('button', { name: 'New notebook' }).click();
    await phone.page.getByRole('dialog', { name: 'New notebook' }).waitFor();
    await phone.screenshot('notebooks-new-notebook-390');
    await phone.page.keyboard.press('Escape');
    await phone.page.goto('/clusters');
    await phone.page.getByRole('button', { name: 'Create cluster' }).first().click();
    await phone.page.getByRole('dialog', { name: 'Create cluster' }).getByText('Worker cores').waitFor();
    await phone.screenshot('create-cluster-worker-size-390');

    await adaApi.call('DELETE', `/api/v2/clusters/account/${ada.username}/id/${details.items[0].id}`);
    expectNoConsoleErrors(session.errors);
    expectNoConsoleErrors(phone.errors);
  });
});
