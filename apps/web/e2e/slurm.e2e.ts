import { afterAll, describe, expect, it } from 'vitest';

import { type SlurmRig, startSlurmRig } from '../../server/test/helpers/slurm';
import { apiAs, createVerifiedUser } from './harness/api';
import { seriousViolations } from './harness/axe';
import { expectNoConsoleErrors, signIn } from './harness/journeys';
import { expectFits } from './harness/layout';
import { consoleSuite } from './harness/suite';

// A real Slurm 22.05 (the server tests' rig: munged, slurmctld, one slurmd), its login node the
// console's server itself, which its operator allows here (CUMULUS_SLURM_LOCAL_LOGIN); the rig
// sets SLURM_CONF before the server starts, so the server's sinfo finds it. Its slurmrestd (JWT)
// is the third login.
const rig: SlurmRig = await startSlurmRig({ cores: 4, memoryMib: 4096, rest: true });
const suite = consoleSuite({ env: { CUMULUS_SLURM_LOCAL_LOGIN: 'true' } });
afterAll(() => rig.close());

describe('Slurm on the Cloud page', () => {
  it('connects a Slurm cluster (the server refusing a partition sinfo does not list at its field), shows its health, disconnects it', async () => {
    const base = suite.server.base;
    const user = await createVerifiedUser(base, suite.server.smtp, 'slurm');
    const { call } = await apiAs(base, user);
    const slug = (await call('GET', '/api/v2/user/me')).default_account.slug as string;
    const session = await suite.open();
    const { page } = session;
    await page.goto('/settings/setup');
    await signIn(page, user, { firstTime: true });
    await page.getByRole('heading', { name: 'Cloud Setup', level: 1 }).waitFor();
    await page.getByRole('tab', { name: 'Slurm' }).click();
    await page.getByText('No Slurm cluster connected.').waitFor();

    // Over SSH (the default) the login node's address, user and keys are asked for.
    await page.getByLabel('Address', { exact: true }).waitFor();
    await page.getByLabel('Host key', { exact: true }).waitFor();
    await page.getByRole('combobox', { name: 'Login node' }).click();
    await page.getByRole('option', { name: 'This Cumulus server' }).click();
    expect(await page.getByLabel('Address', { exact: true }).count()).toBe(0);
    expect(await page.getByLabel('Private key', { exact: true }).count()).toBe(0);

    await page.getByLabel('Name', { exact: true }).fill('hpc');
    // Said before connecting: anyone but the server's operator is refused a cluster there (OPERATOR_ONLY).
    await page
      .getByRole('note')
      .getByText(
        `Only this server's operator can start clusters here: it runs them as its own user (the Slurm cluster hpc is submitted to from this server's machine (login "local"), so its jobs run as the server's user).`,
        { exact: false },
      )
      .waitFor();
    await page.getByLabel('Partition', { exact: true }).fill('nowhere');
    await page.getByLabel('Time limit (minutes)', { exact: true }).fill('60');
    await page.getByLabel('Cores per node', { exact: true }).fill(String(rig.cores));
    await page.getByLabel('Memory per node (GiB)', { exact: true }).fill('4');
    await page.getByLabel('Python', { exact: true }).fill('/usr/bin/python3');
    await page.getByRole('button', { name: 'Connect cluster' }).click();
    const partition = page.getByLabel('Partition', { exact: true });
    await expect.poll(() => partition.getAttribute('aria-invalid'), { timeout: 30_000 }).toBe('true');
    await page
      .getByText(/nowhere/)
      .first()
      .waitFor();
    await session.screenshot('slurm-partition-refused-1440', { fullPage: true });

    await partition.fill(rig.partition);
    await page.getByRole('button', { name: 'Connect cluster' }).click();
    const item = page
      .getByRole('list', { name: 'Slurm clusters' })
      .getByRole('listitem')
      .filter({ hasText: 'hpc' });
    await item.waitFor({ timeout: 30_000 });
    await item.getByText('Healthy').waitFor();
    await item.getByText('Slurm answers on hpc (this machine)').waitFor();
    await item.getByText(/^rig \(rig\*? up 1 idle\)$/).waitFor();
    await item.getByText('4 cores · 4 GiB').waitFor();
    await item.getByText('60 minutes').waitFor();
    // A workspace connects one: the form is gone, and its new clusters run there.
    expect(await page.getByRole('button', { name: 'Connect cluster' }).count()).toBe(0);
    await page.getByText('Your Slurm cluster (as Slurm jobs)').waitFor();
    const listed = await call('GET', `/api/v2/slurm-clusters/${slug}`);
    expect(listed.items.map((c: { name: string }) => c.name)).toEqual(['hpc']);

    await item.getByRole('button', { name: 'Check now hpc' }).click();
    await item.getByText('Healthy').waitFor();

    const found = [...(await seriousViolations(page, 'slurm @1440'))];
    await page.evaluate(() => window.scrollTo(0, 0));
    await session.screenshot('slurm-1440', { fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await expectFits(page, 'slurm @390');
    found.push(...(await seriousViolations(page, 'slurm @390')));
    await session.screenshot('slurm-390', { fullPage: true });
    await page.setViewportSize({ width: 1440, height: 900 });

    await item.getByRole('button', { name: 'Disconnect hpc' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Disconnect hpc?' });
    found.push(...(await seriousViolations(page, 'slurm disconnect dialog')));
    await dialog.getByRole('button', { name: 'Disconnect cluster' }).click();
    await page.getByText('No Slurm cluster connected.').waitFor();
    expect((await call('GET', `/api/v2/slurm-clusters/${slug}`)).count).toBe(0);
    await page.getByText("This Cumulus server's own machine").waitFor();
    // The form again, its fields accessible (checked at 390 px too).
    await page.getByRole('button', { name: 'Connect cluster' }).waitFor();
    await page.setViewportSize({ width: 390, height: 844 });
    await expectFits(page, 'slurm form @390');
    found.push(...(await seriousViolations(page, 'slurm form @390')));
    await session.screenshot('slurm-form-390', { fullPage: true });
    await page.setViewportSize({ width: 1440, height: 900 });

    // Through slurmrestd: its URL, the Slurm user and the token instead of a login node.
    await page.getByRole('combobox', { name: 'Login node' }).click();
    await page.getByRole('option', { name: 'slurmrestd (JWT)' }).click();
    expect(await page.getByRole('note').count()).toBe(0);
    await page.getByLabel('Name', { exact: true }).fill('rest');
    await page.getByLabel('slurmrestd URL', { exact: true }).fill(rig.rest!.url);
    await page.getByLabel('Slurm user', { exact: true }).fill(rig.rest!.user);
    await page.getByLabel('Token', { exact: true }).fill(rig.rest!.token());
    await page.getByLabel('Cores per node', { exact: true }).fill(String(rig.cores));
    await page.getByLabel('Memory per node (GiB)', { exact: true }).fill('4');
    await page.getByLabel('GPUs per node', { exact: true }).fill('2');
    await session.screenshot('slurm-rest-form-1440', { fullPage: true });
    await page.getByRole('button', { name: 'Connect cluster' }).click();
    const restItem = page
      .getByRole('list', { name: 'Slurm clusters' })
      .getByRole('listitem')
      .filter({ hasText: 'rest' });
    await restItem.getByText('Healthy').waitFor({ timeout: 30_000 });
    await restItem.getByText(`cumulus-slurm at ${rig.rest!.url}`).waitFor();
    await restItem.getByText('4 cores · 4 GiB · 2 GPUs').waitFor();
    await restItem.getByText(/^expires /).waitFor();
    // Its token replaced: an expired one is refused at the field, a fresh one taken, its expiry shown.
    const newToken = restItem.getByLabel('New token', { exact: true });
    await newToken.fill(rig.rest!.token(1));
    await page.waitForTimeout(2_000);
    await restItem.getByRole('button', { name: 'Replace token' }).click();
    await restItem
      .getByText(/^The slurmrestd token of cumulus-slurm expired at /)
      .waitFor({ timeout: 30_000 });
    await newToken.fill(rig.rest!.token(7_200));
    await restItem.getByRole('button', { name: 'Replace token' }).click();
    await page.getByText('rest: new token taken').waitFor({ timeout: 30_000 });
    await restItem.getByText(/^expires .*: give a new one soon$/).waitFor();
    expect(await newToken.inputValue()).toBe('');
    found.push(...(await seriousViolations(page, 'slurm rest @1440')));
    await session.screenshot('slurm-rest-1440', { fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await expectFits(page, 'slurm rest @390');
    await session.screenshot('slurm-rest-390', { fullPage: true });
    await page.setViewportSize({ width: 1440, height: 900 });
    expect(found).toEqual([]);
    expectNoConsoleErrors(session.errors);
  });
});
