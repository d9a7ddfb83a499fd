import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { apiAs, createVerifiedUser } from './harness/api';
import { eventually, expectNoConsoleErrors, signIn } from './harness/journeys';
import { expectFits } from './harness/layout';
import { consoleSuite } from './harness/suite';

// A self-hosted install, as `npm start` runs one: no hosted-service greeting.
const suite = consoleSuite({ env: { CUMULUS_HOSTED_SERVICE: 'false' } });

/** How far `inner` reaches past `outer` on the right, in px (0 when inside). */
async function pastRightEdge(page: Page, inner: string, outer: string) {
  const [a, b] = await Promise.all([
    page.locator(inner).first().boundingBox(),
    page.locator(outer).first().boundingBox(),
  ]);
  return Math.max(0, a!.x + a!.width - (b!.x + b!.width));
}

/** Elements whose text is cut off (scrollWidth past clientWidth), by their text. */
const clipped = (page: Page, selector: string) =>
  page.evaluate(
    (sel) =>
      [...document.querySelectorAll<HTMLElement>(sel)]
        .filter((el) => el.scrollWidth > el.clientWidth + 1)
        .map((el) => el.textContent),
    selector,
  );

describe('rough edges a new user of a self-hosted install meets', () => {
  it('no survey or what’s-new banner; a not-found page; Software’s dialog and pagination fit at 1440 and 390 px', async () => {
    const base = suite.server.base;
    const user = await createVerifiedUser(base, suite.server.smtp, 'rough');
    const api = await apiAs(base, user);
    const { slug } = (await api.call('GET', '/api/v2/user/me')).default_account;
    // An environment (the interpreter has what it asks: built at once), so the list has a table.
    await api.call('POST', `/api/v2/software-environment/account/${slug}`, {
      name: 'tools',
      raw_pip: ['pip'],
    });
    // A job cancelled before any task ran.
    const job = await api.call('POST', '/api/v2/jobs/', {
      workspace: slug,
      user_command: 'echo hi',
      task_array_ntasks: 1,
    });
    await api.call('DELETE', `/api/v2/jobs/${job.id}`);

    for (const [width, height] of [
      [1440, 900],
      [390, 844],
    ] as const) {
      const session = await suite.open({ width, height });
      const { page } = session;
      await page.goto('/get-started');
      await signIn(page, user);
      await page.getByRole('heading', { name: 'Get Started', level: 1 }).waitFor();
      await page
        .getByText('From nothing to a computation on a Dask cluster of this server, in four steps', {
          exact: false,
        })
        .waitFor();
      // Let late greetings arrive, if any would.
      await page.waitForTimeout(1_500);
      expect(await page.getByRole('dialog', { name: 'Welcome to Cumulus' }).count()).toBe(0);
      expect(await page.getByText('How did you hear about Cumulus?').count()).toBe(0);
      expect(await page.getByText('Long-lived API tokens are here').count()).toBe(0);
      await session.screenshot(`rough-get-started-${width}`);

      await page.goto('/no/such/page');
      await page.getByText('404: Could not find that page or resource').waitFor();
      expect(await page.getByRole('link', { name: 'Go home' }).getAttribute('href')).toBe('/');
      await session.screenshot(`rough-not-found-${width}`);

      await page.goto('/software');
      await page.getByRole('link', { name: 'tools' }).waitFor();
      await page.getByText('are hidden by the package_sync: False filter', { exact: false }).waitFor();
      const rowsPerPage = page.getByRole('combobox', { name: 'Rows per page' });
      await rowsPerPage.waitFor();
      expect(await clipped(page, '[data-slot=table-pagination] [data-slot=select-value]')).toEqual([]);
      expect(await clipped(page, '[data-slot=table-pagination] span')).toEqual([]);
      await expectFits(page, `software at ${width}`);
      await session.screenshot(`rough-software-${width}`);

      await page.getByRole('button', { name: 'Create environment' }).click();
      const dialog = page.getByRole('dialog', { name: 'Create software environment' });
      await dialog.waitFor();
      await eventually(async () => expect(await dialog.getByLabel('pip requirements').count()).toBe(1));
      await page.waitForTimeout(500);
      // The local backend builds pip and (with podman) container images: no conda tab that could only fail.
      expect(await dialog.getByRole('tab').allTextContents()).toEqual(['pip', 'Container']);
      expect(await pastRightEdge(page, '[role=dialog] button:has-text("Cancel")', '[role=dialog]')).toBe(0);
      expect(
        await pastRightEdge(page, '[role=dialog] button:has-text("Create and build")', '[role=dialog]'),
      ).toBe(0);
      await session.screenshot(`rough-software-create-${width}`);
      await page.keyboard.press('Escape');

      await page.goto(`/batch/jobs/${job.id}`);
      await page.getByRole('heading', { name: `Batch job ${job.id}`, level: 1 }).waitFor();
      await page.getByText('Did not run').waitFor();
      expect(await page.getByText('Not yet').count()).toBe(0);
      await session.screenshot(`rough-batch-job-cancelled-${width}`, { fullPage: true });
      expectNoConsoleErrors(session.errors);
    }
  });
});
