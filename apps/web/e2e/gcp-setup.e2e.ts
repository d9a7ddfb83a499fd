import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import { GceRig } from '../../server/test/helpers/gce-rig/rig';
import { apiAs, createVerifiedUser } from './harness/api';
import { seriousViolations } from './harness/axe';
import { expectNoConsoleErrors, signIn } from './harness/journeys';
import { expectFits } from './harness/layout';
import { consoleSuite } from './harness/suite';

// Google is the server tests' GCE rig: its token endpoint takes the keys it minted, and its
// Resource Manager answers which permissions a key's account holds (a test withholds some).
const rig = await new GceRig().start();
// The server runs "on Google Cloud" with an account of its own (the rig's metadata server answers for it).
const suite = consoleSuite({ env: { ...rig.env(), CUMULUS_GCP_WORKLOAD_IDENTITY: 'true' } });
afterAll(() => rig.stop());

describe('GCP setup', () => {
  it('walks an admin through GCP: a key file whose missing permissions are named at its field, then region and zone, then connected', async () => {
    const base = suite.server.base;
    const user = await createVerifiedUser(base, suite.server.smtp, 'gcp');
    const { call } = await apiAs(base, user);
    const slug = (await call('GET', '/api/v2/user/me')).default_account.slug as string;
    const key = rig.tokens.createKey('cumulus', 'e2e-project-1');
    const email = key.client_email!;
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'gcp-key-')), 'cumulus-key.json');
    writeFileSync(file, JSON.stringify(key, null, 2));

    const session = await suite.open();
    const { page } = session;
    await page.goto('/settings/setup');
    await signIn(page, user, { firstTime: true });
    await page.getByRole('heading', { name: 'Cloud Setup', level: 1 }).waitFor();
    await page.getByRole('tab', { name: 'GCP' }).click();
    await page.getByText('Save the service account key first.').waitFor();

    // The key file chosen fills the key; its account lacks two permissions: named at the field.
    rig.resourceManager.withhold(['compute.instances.create', 'compute.subnetworks.use'], email);
    await page.getByLabel('Key file').setInputFiles(file);
    await expect.poll(() => page.getByLabel('Service account key (JSON)').inputValue()).toContain(email);
    await page.getByRole('button', { name: 'Save GCP credentials' }).click();
    const refusal = `The service account ${email} lacks permissions Cumulus needs in project "e2e-project-1": compute.instances.create, compute.subnetworks.use. Grant them and save the key again.`;
    await page.getByText(refusal).waitFor();
    expect(await page.getByLabel('Service account key (JSON)').getAttribute('aria-invalid')).toBe('true');
    // At the field only, not again above the form.
    expect(await page.getByText(refusal).count()).toBe(1);
    const found = [...(await seriousViolations(page, 'gcp key refused @1440'))];
    await session.screenshot('gcp-setup-key-refused-1440', { fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await expectFits(page, 'gcp key refused @390');
    found.push(...(await seriousViolations(page, 'gcp key refused @390')));
    await session.screenshot('gcp-setup-key-refused-390', { fullPage: true });
    await page.setViewportSize({ width: 1440, height: 900 });

    // Granted: the key is stored, shown masked, and the region step opens.
    rig.resourceManager.restore();
    await page.getByRole('button', { name: 'Save GCP credentials' }).click();
    await page.getByText('Credentials saved').waitFor();
    await page.getByText(email).first().waitFor();
    // Stored: the key leaves the page (the summary shows it masked).
    await expect.poll(() => page.getByLabel('Service account key (JSON)').inputValue()).toBe('');
    expect(await page.content()).not.toContain('PRIVATE KEY');

    await page.getByRole('combobox', { name: 'Zone' }).click();
    await page.getByRole('option', { name: 'us-east1-b' }).click();
    await page.getByLabel('VPC network').fill('dask-net');
    await page.getByRole('button', { name: 'Set up us-east1' }).click();
    const connected = page
      .getByRole('status')
      .filter({ hasText: 'Connected: new clusters run in your GCP project' });
    await connected.waitFor();
    await connected.getByText('us-east1-b').waitFor();
    await connected.getByText('e2e-project-1').waitFor();
    await page.getByText('GCP (your project)').waitFor({ timeout: 30_000 });
    await page.getByText('Setup complete').waitFor();
    expect(await call('GET', `/api/v2/setup/account/${slug}/gcp/settings`)).toMatchObject({
      zone: 'us-east1-b',
    });
    expect(await call('GET', `/api/v2/setup/account/${slug}/gcp/global`)).toMatchObject({
      network: 'dask-net',
    });
    expect((await call('GET', '/api/v2/user/me')).default_account.active_backend).toBe('vm_gcp');

    // 3. Cluster settings: machine types, Spot and the disk, saved as the server keeps them.
    const workers = page.getByLabel('Worker machine types');
    await workers.fill('n2-standard-4, e2-standard-8');
    await page.getByLabel('Boot disk size (GiB)').fill('100');
    await page.getByRole('switch', { name: 'Spot workers' }).click();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved').waitFor();
    expect(await call('GET', `/api/v2/setup/account/${slug}/gcp/settings`)).toMatchObject({
      worker_instance_types: ['n2-standard-4', 'e2-standard-8'],
      spot: true,
      // The default, left as it was: on demand when Spot capacity is short.
      spot_on_demand_fallback: true,
      disk_size_gib: 100,
      zone: 'us-east1-b',
    });
    expect(await workers.inputValue()).toBe('n2-standard-4, e2-standard-8');

    found.push(...(await seriousViolations(page, 'gcp connected @1440')));
    await page.evaluate(() => window.scrollTo(0, 0));
    await session.screenshot('gcp-setup-connected-1440', { fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await expectFits(page, 'gcp connected @390');
    found.push(...(await seriousViolations(page, 'gcp connected @390')));
    await session.screenshot('gcp-setup-connected-390', { fullPage: true });
    expect(found).toEqual([]);
    expectNoConsoleErrors(session.errors);

    // The operator (this server's first account) may use the server's own service account instead.
    await page.setViewportSize({ width: 390, height: 844 });
    const own = page.getByRole('button', { name: "Use this server's service account" });
    await own.scrollIntoViewIfNeeded();
    await expectFits(page, 'gcp own account offered @390');
    expect(await seriousViolations(page, 'gcp own account offered @390')).toEqual([]);
    await session.screenshot('gcp-setup-own-account-390');
    await page.setViewportSize({ width: 1440, height: 900 });
    await own.click();
    await page.getByText("This server's own service account saved").waitFor();
    await page.getByText(rig.serverAccount!).first().waitFor();
    expect(await call('GET', `/api/v2/cloud-credentials/${slug}/gcp`)).toMatchObject({
      kind: 'workload_identity',
    });
  });

  it("offers the server's own service account to its operator alone", async () => {
    const base = suite.server.base;
    const user = await createVerifiedUser(base, suite.server.smtp, 'gcp-other');
    const session = await suite.open();
    const { page } = session;
    await page.goto('/settings/setup');
    await signIn(page, user, { firstTime: true });
    await page.getByRole('tab', { name: 'GCP' }).click();
    await page.getByRole('button', { name: 'Save GCP credentials' }).waitFor();
    expect(await page.getByRole('button', { name: "Use this server's service account" }).count()).toBe(0);
    const found = [...(await seriousViolations(page, 'gcp key form, not the operator @1440'))];
    await session.screenshot('gcp-setup-not-operator-1440', { fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await expectFits(page, 'gcp key form, not the operator @390');
    found.push(...(await seriousViolations(page, 'gcp key form, not the operator @390')));
    await session.screenshot('gcp-setup-not-operator-390', { fullPage: true });
    expect(found).toEqual([]);
    expectNoConsoleErrors(session.errors);
  });
});
