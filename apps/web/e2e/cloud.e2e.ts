import { afterAll, describe, expect, it } from 'vitest';

import { type Moto, startMoto } from '../../server/test/helpers/moto';
import { createVerifiedUser } from './harness/api';
import { eventually, expectNoConsoleErrors, signIn } from './harness/journeys';
import { consoleSuite } from './harness/suite';

// AWS is moto_server with IAM authentication on: wrong keys are refused as AWS refuses them.
const moto: Moto = await startMoto({ auth: true });
// The server's own AWS identity (what roles trust) comes from the SDK's default chain.
const suite = consoleSuite({
  env: {
    AWS_ENDPOINT_URL: moto.url,
    AWS_ACCESS_KEY_ID: moto.keys.accessKeyId,
    AWS_SECRET_ACCESS_KEY: moto.keys.secretAccessKey,
  },
});
afterAll(() => moto.stop());

describe('Cloud setup', () => {
  it('sets a workspace up on AWS: keys checked, region and network from the account, then clusters offer instance types', async () => {
    const base = suite.server.base;
    const user = await createVerifiedUser(base, suite.server.smtp, 'cloud');
    const session = await suite.open();
    const { page } = session;
    await page.goto('/settings/setup');
    await signIn(page, user, { firstTime: true });
    await page.getByRole('heading', { name: 'Cloud Setup', level: 1 }).waitFor();
    await page.getByText("This Cumulus server's own machine").waitFor();

    // Wrong keys: AWS's own words.
    await page.getByLabel('Access key id').fill('AKIANOTAREALKEY12345');
    await page.getByLabel('Secret access key').fill('not-the-secret');
    await page.getByRole('button', { name: 'Save credentials' }).click();
    await page.getByText(/AWS refused these credentials: InvalidClientTokenId/).waitFor();

    await page.getByLabel('Access key id').fill(moto.keys.accessKeyId);
    await page.getByLabel('Secret access key').fill(moto.keys.secretAccessKey);
    await page.getByRole('button', { name: 'Save credentials' }).click();
    await page.getByText('Credentials saved').waitFor();
    await page.getByText(`${moto.keys.accessKeyId.slice(0, 4)}…${moto.keys.accessKeyId.slice(-4)}`).waitFor();
    expect(await page.content()).not.toContain(moto.keys.secretAccessKey);

    // The account's default VPC is offered; the security group is opened to this machine only.
    await page.getByRole('combobox', { name: 'VPC' }).filter({ hasText: /vpc-/ }).waitFor();
    await page.getByLabel('Allowed CIDR').first().fill('127.0.0.1/32');
    await page.getByRole('button', { name: 'Set up us-east-1' }).click();
    // The workspace is polled until it runs on AWS.
    await page.getByText('AWS (EC2, your account)').waitFor({ timeout: 30_000 });
    await page.getByText('Setup complete').waitFor();
    await page.getByText('3. Cluster settings').waitFor();
    await session.screenshot('cloud-setup');

    await page.setViewportSize({ width: 390, height: 844 });
    await eventually(async () =>
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0),
    );
    await session.screenshot('cloud-setup-390');
    await page.setViewportSize({ width: 1280, height: 900 });

    // Role assumption: the CloudFormation link, the principal and the external id.
    await page.getByRole('tab', { name: 'Role assumption' }).click();
    await page.getByRole('button', { name: 'Start CloudFormation setup' }).click();
    await page.getByText('Waiting for the role…').waitFor();
    await page.getByRole('link', { name: 'Open in AWS CloudFormation' }).waitFor();
    await page
      .getByRole('tabpanel', { name: 'Role assumption' })
      .getByText('arn:aws:iam::123456789012:user/cumulus-tests')
      .waitFor();
    await session.screenshot('cloud-setup-role');

    // GCP and Azure forms.
    await page.getByRole('tab', { name: 'Azure' }).click();
    await page.getByLabel('Tenant id').fill('not-a-tenant');
    await page.getByRole('button', { name: 'Save Azure credentials' }).click();
    await page.getByText(/Enter the tenant id \(a UUID\)\./).waitFor();
    await page.getByRole('tab', { name: 'GCP' }).click();
    await page.getByLabel('Service account key (JSON)').fill('{"type": "authorized_user"}');
    await page.getByRole('button', { name: 'Save GCP credentials' }).click();
    await page.getByText(/its "type" must be "service_account"/).waitFor();

    // Creating a cluster in a cloud workspace offers instance types with prices, and spot.
    await page.goto('/clusters');
    await page.getByRole('button', { name: 'Create cluster' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Create cluster' });
    await dialog.getByRole('combobox', { name: 'Worker instance type' }).click();
    await page.getByRole('option', { name: /^m6i\.xlarge · 4 cores · 16 GiB/ }).click();
    await dialog.getByText('Spot workers').waitFor();
    await session.screenshot('cloud-create-cluster');
    expectNoConsoleErrors(session.errors);
  }, 240_000);
});
