import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { apiAs, createVerifiedUser } from './harness/api';
import { eventually, expectNoConsoleErrors, signIn } from './harness/journeys';
import { consoleSuite } from './harness/suite';

const suite = consoleSuite();
const BUILD_DEADLINE_MS = 180_000;

/** A pure-Python wheel made with the standard library (no index needed). */
function makeWheel(project: string, version: string): { fileName: string; bytes: Buffer } {
  const dir = mkdtempSync(path.join(tmpdir(), 'cumulus-e2e-wheel-'));
  const module = project.replace(/-/g, '_');
  const fileName = `${module}-${version}-py3-none-any.whl`;
  execFileSync('/usr/bin/python3', [
    '-c',
    `
import sys, zipfile
path, module, project, version = sys.argv[1:5]
dist = f"{module}-{version}.dist-info"
with zipfile.ZipFile(path, "w") as z:
    z.writestr(f"{module}/__init__.py", "VALUE = 1\\n")
    z.writestr(f"{dist}/METADATA", f"Metadata-Version: 2.1\\nName: {project}\\nVersion: {version}\\n")
    z.writestr(f"{dist}/WHEEL", "Wheel-Version: 1.0\\nGenerator: e2e\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n")
    z.writestr(f"{dist}/RECORD", "")
`,
    path.join(dir, fileName),
    module,
    project,
    version,
  ]);
  return { fileName, bytes: readFileSync(path.join(dir, fileName)) };
}

describe('Software environments', () => {
  it('creates an environment, follows its build logs, lists and filters environments, and shows what a build installed', async () => {
    const session = await suite.open();
    const { page } = session;
    const base = suite.server.base;
    const user = await createVerifiedUser(base, suite.server.smtp, 'soft');

    await page.goto('/software');
    await signIn(page, user, { firstTime: true });
    await page.getByRole('heading', { name: 'Software Environments', level: 1 }).waitFor();
    await page.getByText('No software environments').waitFor();
    await session.screenshot('software-empty');

    // An unknown filter key says so, in the spec's words.
    await page.getByLabel('Filter software environments').fill('colour:blue');
    await page.getByLabel('Filter software environments').press('Enter');
    await page.getByText('colour is not a valid search term').waitFor();

    // Create from pasted requirements: the build page opens on its logs.
    await page.getByRole('button', { name: 'Create environment' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create software environment' });
    await dialog.getByLabel('Name').fill('analysis');
    await dialog.getByLabel('pip requirements').fill('six\n# comments are ignored\n');
    await session.screenshot('software-create-dialog');
    await dialog.getByRole('button', { name: 'Create and build' }).click();
    await page.waitForURL(/\/software\/alias\/\d+\/account\/[^/]+\/build\/\d+\?tab=logs/);
    await page
      .getByTestId('build-logs')
      .getByText('Installing 1 requirement with pip')
      .waitFor({ timeout: BUILD_DEADLINE_MS });
    await page
      .locator('[data-slot=state-chip]', { hasText: 'Built' })
      .first()
      .waitFor({ timeout: BUILD_DEADLINE_MS });
    await session.screenshot('software-build-logs');
    await page.getByRole('button', { name: 'Requirements' }).click();
    await page.getByText('six', { exact: true }).waitFor();
    expect(new URL(page.url()).searchParams.get('tab')).toBe('details');

    // A cluster on it, from the Create cluster dialog's environment picker.
    await page.goto('/clusters');
    await page.getByRole('button', { name: 'Create cluster' }).first().click();
    const create = page.getByRole('dialog', { name: 'Create cluster' });
    await create.getByLabel('Name').fill('on-analysis');
    await create.getByLabel('Workers').fill('0');
    await create.getByLabel('Software environment').click();
    await page.getByRole('option', { name: 'analysis' }).click();
    await session.screenshot('create-cluster-software');
    await create.getByRole('button', { name: 'Create cluster' }).click();
    await page.waitForURL(/\/clusters\/\d+\?account=/);
    const clusterId = Number(new URL(page.url()).pathname.split('/')[2]);
    await page.getByRole('heading', { name: 'on-analysis', level: 1 }).waitFor();
    await page.locator('dd', { hasText: 'analysis' }).first().waitFor();
    await page.getByText('tls://').first().waitFor({ timeout: BUILD_DEADLINE_MS });

    // A build with an uploaded wheel: Installed lists it with its version.
    const api = await apiAs(base, user);
    const { slug } = (await api.call('GET', '/api/v2/user/me')).default_account;
    await api.call('DELETE', `/api/v2/clusters/account/${slug}/id/${clusterId}`);
    const wheel = makeWheel('e2e-widget', '1.4.0');
    const md5 = createHash('md5').update(wheel.bytes).digest();
    const announced = await api.call('POST', `/api/v2/software-environment/account/${slug}/package-upload`, {
      name: wheel.fileName,
      md5: md5.toString('hex'),
      wheel_md5: md5.toString('base64'),
    });
    const put = await fetch(announced.upload_url, {
      method: 'PUT',
      headers: { 'content-type': 'binary/octet-stream', 'content-md5': md5.toString('base64') },
      body: new Uint8Array(wheel.bytes),
    });
    expect(put.status).toBe(200);
    const alias = await api.call('POST', `/api/v2/software-environment/account/${slug}`, {
      name: 'with-widget',
      packages: [{ name: 'e2e-widget', specifier: '', file: announced.id, client_version: '1.4.0' }],
    });
    const buildId = alias.latest_spec.latest_build.id;
    await eventually(async () => {
      const build = await api.call('GET', `/api/v2/software-environment/account/${slug}/build/${buildId}`);
      expect(build.state).toBe('built');
    }, BUILD_DEADLINE_MS);
    await page.goto(`/software/alias/${alias.id}/build/${buildId}`);
    await page.waitForURL(new RegExp(`/software/alias/${alias.id}/account/${slug}/build/${buildId}`));
    await page.getByRole('cell', { name: 'e2e-widget' }).waitFor();
    await page.getByRole('cell', { name: '1.4.0' }).first().waitFor();
    await session.screenshot('software-build-installed');

    // The list: both environments, a filter kept in the URL.
    await page.goto('/software');
    await page.getByRole('link', { name: 'analysis' }).waitFor();
    await page.getByRole('link', { name: 'with-widget' }).waitFor();
    await page.getByLabel('Filter software environments').fill('widget');
    await page.getByLabel('Filter software environments').press('Enter');
    await eventually(async () => expect(await page.getByRole('link', { name: 'analysis' }).count()).toBe(0));
    const filters = JSON.parse(new URL(page.url()).searchParams.get('filters') ?? '[]');
    expect(filters).toContainEqual(['name', 'widget']);
    await session.screenshot('software-list-filtered');

    // The environment's page lists its builds.
    await page.getByRole('link', { name: 'with-widget' }).click();
    await page.getByRole('heading', { name: 'with-widget', level: 1 }).waitFor();
    await page.getByRole('link', { name: `#${buildId}` }).waitFor();
    await session.screenshot('software-alias');
    expectNoConsoleErrors(session.errors);
  }, 420_000);

  it('fits a phone', async () => {
    const session = await suite.open({ width: 390, height: 844 });
    const { page } = session;
    const user = await createVerifiedUser(suite.server.base, suite.server.smtp, 'softphone');
    await page.goto('/software');
    await signIn(page, user, { firstTime: true });
    await page.getByText('No software environments').waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await session.screenshot('software-phone');
  }, 120_000);
});
