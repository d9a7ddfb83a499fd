import { afterAll, describe, expect, it } from 'vitest';

import { type SshRig, startSshRig } from '../../server/test/helpers/ssh-hosts';
import { apiAs, createVerifiedUser } from './harness/api';
import { seriousViolations } from './harness/axe';
import { expectNoConsoleErrors, signIn } from './harness/journeys';
import { expectFits } from './harness/layout';
import { consoleSuite } from './harness/suite';

// Two real sshd "hosts" on 127.0.0.2 and 127.0.0.3 (the server tests' rig): the console's server
// reaches them as a workspace's clusters would, with their host keys pinned.
const rig: SshRig = await startSshRig(2);
const suite = consoleSuite();
afterAll(() => rig.close());

describe('SSH hosts on the Cloud page', () => {
  it('adds a host (the server refusing a wrong host key and a Python without Dask at their fields), shows its health, removes it', async () => {
    const base = suite.server.base;
    const user = await createVerifiedUser(base, suite.server.smtp, 'sshhosts');
    const { call } = await apiAs(base, user);
    const slug = (await call('GET', '/api/v2/user/me')).default_account.slug as string;
    const session = await suite.open();
    const { page } = session;
    await page.goto('/settings/setup');
    await signIn(page, user, { firstTime: true });
    await page.getByRole('heading', { name: 'Cloud Setup', level: 1 }).waitFor();
    await page.getByRole('tab', { name: 'SSH hosts' }).click();
    await page.getByText('No SSH hosts yet.').waitFor();

    const [a, b] = rig.hosts as [(typeof rig.hosts)[0], (typeof rig.hosts)[0]];
    await page.getByLabel('Name', { exact: true }).fill('box-a');
    await page.getByLabel('Address', { exact: true }).fill(a.address);
    await page.getByLabel('Port', { exact: true }).fill(String(a.port));
    await page.getByLabel('User', { exact: true }).fill(rig.user);
    // The other host's key: the server refuses it at the host key's field.
    await page.getByLabel('Host key', { exact: true }).fill(b.hostKey);
    await page.getByLabel('Private key', { exact: true }).fill(rig.privateKey);
    await page.getByLabel('Cores', { exact: true }).fill('3');
    await page.getByLabel('Memory (GiB)', { exact: true }).fill('4');
    await page.getByLabel('Labels', { exact: true }).fill('big, gpu-less');
    // The pasted key's fingerprint, as `ssh-keygen -lf` prints it, offered for comparison.
    await page.getByText(/Its fingerprint is SHA256:[A-Za-z0-9+/]{43}/).waitFor();
    await page.getByRole('button', { name: 'Add host' }).click();
    const hostKeyField = page.getByLabel('Host key', { exact: true });
    await page
      .getByText(
        `box-a (${a.address}) presented a host key other than the one pinned for it: refused (if the host was reinstalled, pin its new key).`,
      )
      .waitFor();
    expect(await hostKeyField.getAttribute('aria-invalid')).toBe('true');
    await session.screenshot('ssh-hosts-key-refused-1440', { fullPage: true });

    // The right key, but a "Python" without Dask: refused at the Python field.
    await hostKeyField.fill(a.hostKey);
    await page.getByLabel('Python', { exact: true }).fill('/bin/true');
    await page.getByRole('button', { name: 'Add host' }).click();
    await expect
      .poll(() => page.getByLabel('Python', { exact: true }).getAttribute('aria-invalid'), {
        timeout: 30_000,
      })
      .toBe('true');
    expect(await hostKeyField.getAttribute('aria-invalid')).toBeNull();

    await page.getByLabel('Python', { exact: true }).fill('/usr/bin/python3');
    await page.getByRole('button', { name: 'Add host' }).click();
    const item = page
      .getByRole('list', { name: 'SSH hosts' })
      .getByRole('listitem')
      .filter({ hasText: 'box-a' });
    await item.waitFor({ timeout: 30_000 });
    await item.getByText('Healthy').waitFor();
    await item.getByText(/^Reachable; Python \d+\.\d+\.\d+ with Dask distributed \d/).waitFor();
    await item.getByText('3 cores · 4 GiB').waitFor();
    await item.getByText('big, gpu-less').waitFor();
    // The private key left the form and never comes back from the server.
    expect(await page.getByLabel('Private key', { exact: true }).inputValue()).toBe('');
    expect(await page.content()).not.toContain('PRIVATE KEY-----\n');
    const listed = await call('GET', `/api/v2/ssh-hosts/${slug}`);
    expect(listed.items.map((h: { name: string }) => h.name)).toEqual(['box-a']);
    expect(JSON.stringify(listed)).not.toContain('PRIVATE KEY');
    // The workspace's new clusters now run on its hosts.
    await page.getByText('Your SSH hosts').waitFor();

    await item.getByRole('button', { name: 'Check now box-a' }).click();
    await item.getByText('Healthy').waitFor();

    const found = [...(await seriousViolations(page, 'ssh-hosts @1440'))];
    await page.evaluate(() => window.scrollTo(0, 0));
    await session.screenshot('ssh-hosts-1440', { fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await expectFits(page, 'ssh-hosts @390');
    found.push(...(await seriousViolations(page, 'ssh-hosts @390')));
    await session.screenshot('ssh-hosts-390', { fullPage: true });
    await page.setViewportSize({ width: 1440, height: 900 });

    await item.getByRole('button', { name: 'Remove box-a' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Remove box-a?' });
    found.push(...(await seriousViolations(page, 'ssh-hosts remove dialog')));
    await dialog.getByRole('button', { name: 'Remove host' }).click();
    await page.getByText('No SSH hosts yet.').waitFor();
    expect((await call('GET', `/api/v2/ssh-hosts/${slug}`)).count).toBe(0);
    expect(found).toEqual([]);
    expectNoConsoleErrors(session.errors);
  });
});
