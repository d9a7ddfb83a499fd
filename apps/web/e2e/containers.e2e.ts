import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { beforeAll, describe, expect, it } from 'vitest';

import { createVerifiedUser } from './harness/api';
import { expectNoConsoleErrors, signIn } from './harness/journeys';
import { consoleSuite } from './harness/suite';

/**
 * Create environment → Container: the image is checked before the dialog closes. The images are
 * the server tests' (scripts/container-images.sh: Debian bookworm with Dask, and a copy without),
 * made once per machine.
 */
const suite = consoleSuite();
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const BASE = 'localhost/cumulus-test/dask:bookworm';
const NO_DASK = 'localhost/cumulus-test/nodask:bookworm';
const CHECK_DEADLINE_MS = 180_000;

beforeAll(async () => {
  await promisify(execFile)('bash', [path.join(ROOT, 'scripts/container-images.sh')], { timeout: 900_000 });
}, 900_000);

describe('Container environments', () => {
  it("checks an image at create: a refused image's reason at its field, a good image's Dask in its build", async () => {
    const session = await suite.open();
    const { page } = session;
    const user = await createVerifiedUser(suite.server.base, suite.server.smtp, 'image');
    await page.goto('/software');
    await signIn(page, user, { firstTime: true });
    await page.getByRole('heading', { name: 'Software Environments', level: 1 }).waitFor();

    await page.getByRole('button', { name: 'Create environment' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create software environment' });
    await dialog.getByLabel('Name').fill('stack');
    await dialog.getByRole('tab', { name: 'Container' }).click();
    const image = dialog.getByLabel('Container image');
    await image.fill(NO_DASK);
    await dialog.getByRole('button', { name: 'Create and build' }).click();
    // The dialog stays while the image is checked, then names why it was refused at the field.
    await dialog.getByText('Checking the image: pulling it and making its Python import Dask…').waitFor();
    const reason = dialog.getByText(`${NO_DASK} has no Dask: its python3 (3.11.`);
    await reason.waitFor({ timeout: CHECK_DEADLINE_MS });
    expect(await image.getAttribute('aria-invalid')).toBe('true');
    const describedBy = await image.getAttribute('aria-describedby');
    expect(await dialog.locator(`[id="${describedBy}"]`).textContent()).toContain(
      'cannot import distributed',
    );
    await session.screenshot('software-container-refused');

    // Another image: checked, and its build's log says what Dask it has.
    await image.fill(BASE);
    await dialog.getByRole('button', { name: 'Create and build' }).click();
    await page
      .waitForURL(/\/software\/alias\/\d+\/account\/[^/]+\/build\/\d+\?tab=logs/, {
        timeout: CHECK_DEADLINE_MS,
      })
      .catch(async (err: Error) => {
        await session.screenshot('software-container-not-opened');
        throw new Error(
          `${err.message}\nThe dialog says: ${await dialog.textContent().catch(() => '(gone)')}`,
        );
      });
    await page
      .getByTestId('build-logs')
      .getByText(/^.*cumulus-test\/dask:bookworm: Python 3\.11\.\d+, distributed 2022\.12\.1/)
      .waitFor({ timeout: CHECK_DEADLINE_MS });
    await page.locator('[data-slot=state-chip]', { hasText: 'Built' }).first().waitFor();
    await session.screenshot('software-container-built');
    expectNoConsoleErrors(session.errors);
  });
});
