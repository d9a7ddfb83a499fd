import {
  CloudFormationClient,
  CreateStackCommand,
  DescribeStacksCommand,
} from '@aws-sdk/client-cloudformation';
import { DescribeImagesCommand, EC2Client, RegisterImageCommand } from '@aws-sdk/client-ec2';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';

import { type Moto, startMoto } from '../../server/test/helpers/moto';
import { apiAs, createVerifiedUser } from './harness/api';
import { eventually, expectNoConsoleErrors, signIn } from './harness/journeys';
import { consoleSuite } from './harness/suite';

// AWS is moto_server with IAM authentication on: wrong keys are refused as AWS refuses them.
const moto: Moto = await startMoto({ auth: true });
// Where AWS is, and the server's own AWS identity (what roles trust): the SDK reads them.
const suite = consoleSuite({
  env: {
    AWS_ENDPOINT_URL: moto.url,
    AWS_ACCESS_KEY_ID: moto.keys.accessKeyId,
    AWS_SECRET_ACCESS_KEY: moto.keys.secretAccessKey,
  },
});
afterAll(() => moto.stop());

const aws = { region: 'us-east-1', endpoint: moto.url, credentials: moto.keys };

/** What the user does in their own account: the role stack, from the template the console gave. */
async function makeRoleStack(page: Page): Promise<string> {
  const templateUrl = await page.getByRole('link', { name: 'Download the template' }).getAttribute('href');
  const template = await (await fetch(templateUrl!)).text();
  const value = async (name: string) =>
    (
      await page
        .getByRole('button', { name: `Copy ${name}` })
        .locator('..')
        .textContent()
    )?.trim() ?? '';
  const cf = new CloudFormationClient(aws);
  const stackName = await value('stack name');
  await cf.send(
    new CreateStackCommand({
      StackName: stackName,
      TemplateBody: template,
      Capabilities: ['CAPABILITY_NAMED_IAM'],
      Parameters: await Promise.all(
        ['CumulusPrincipal', 'ExternalId', 'RoleName', 'InstanceRoleName'].map(async (k) => ({
          ParameterKey: k,
          ParameterValue: await value(k),
        })),
      ),
    }),
  );
  const stack = (await cf.send(new DescribeStacksCommand({ StackName: stackName }))).Stacks![0]!;
  return stack.Outputs!.find((o) => o.OutputKey === 'RoleArn')!.OutputValue!;
}

describe('Cloud setup', () => {
  it('sets a workspace up on AWS: keys checked, network and image from the account, settings saved; 409 dialogs; role assumption from the template', async () => {
    const base = suite.server.base;
    const user = await createVerifiedUser(base, suite.server.smtp, 'cloud');
    const { call } = await apiAs(base, user);
    const slug = (await call('GET', '/api/v2/user/me')).default_account.slug as string;
    const image = (
      await new EC2Client(aws).send(
        new RegisterImageCommand({
          Name: 'my-dask-image',
          RootDeviceName: '/dev/xvda',
          VirtualizationType: 'hvm',
        }),
      )
    ).ImageId!;
    const session = await suite.open();
    const { page } = session;
    await page.goto('/settings/setup');
    await signIn(page, user, { firstTime: true });
    await page.getByRole('heading', { name: 'Cloud Setup', level: 1 }).waitFor();
    await page.getByText("This Cumulus server's own machine").waitFor();

    // A malformed key: refused by the server, named as the form labels it.
    await page.getByLabel('Access key ID').fill('not a key');
    await page.getByLabel('Secret access key').fill('not-the-secret');
    await page.getByRole('button', { name: 'Save credentials' }).click();
    await page
      .getByText('Access key ID: Enter an AWS access key id (letters and digits, like AKIA...).')
      .waitFor();
    expect(await page.getByText(/credentials\.aws/).count()).toBe(0);
    await session.screenshot('cloud-setup-key-refused', { fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await session.screenshot('cloud-setup-key-refused-390', { fullPage: true });
    await page.setViewportSize({ width: 1440, height: 900 });

    // Wrong keys: AWS's own words.
    await page.getByLabel('Access key ID').fill('AKIANOTAREALKEY12345');
    await page.getByLabel('Secret access key').fill('not-the-secret');
    await page.getByRole('button', { name: 'Save credentials' }).click();
    await page.getByText(/AWS refused these credentials: InvalidClientTokenId/).waitFor();

    await page.getByLabel('Access key ID').fill(moto.keys.accessKeyId);
    await page.getByLabel('Secret access key').fill(moto.keys.secretAccessKey);
    await page.getByRole('button', { name: 'Save credentials' }).click();
    await page.getByText('Credentials saved').waitFor();
    await page.getByText(`${moto.keys.accessKeyId.slice(0, 4)}…${moto.keys.accessKeyId.slice(-4)}`).waitFor();
    expect(await page.content()).not.toContain(moto.keys.secretAccessKey);

    // The account's default VPC is offered; the security group is opened to this machine only.
    await page.getByRole('combobox', { name: 'VPC' }).filter({ hasText: /vpc-/ }).waitFor();
    await page.getByLabel('Allowed CIDR').first().fill('127.0.0.1/32');
    await page.getByRole('button', { name: 'Set up us-east-1' }).click();
    // No machine image yet: nothing could launch, so the workspace stays where it is and says why.
    await page
      .getByRole('status')
      .filter({ hasText: 'No machine image for us-east-1: set one in the AWS settings' })
      .waitFor({ timeout: 30_000 });
    await page.getByText("This Cumulus server's own machine").waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await session.screenshot('cloud-setup-no-image');

    // Settings saved with the image (and moto's arm64 one for Graviton types): the workspace is polled until it runs on AWS.
    const arm = (
      await new EC2Client(aws).send(
        new DescribeImagesCommand({ Filters: [{ Name: 'architecture', Values: ['arm64'] }] }),
      )
    ).Images![0]!.ImageId!;
    await page.getByLabel('Machine image in us-east-1').fill(image);
    await page.getByLabel('arm64 image in us-east-1').fill(arm);
    await page.getByLabel('Disk size (GiB)').fill('80');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Settings saved' }).waitFor();
    await page.getByText('AWS (EC2, your account)').waitFor({ timeout: 30_000 });
    await page.getByText('Setup complete').waitFor();
    expect(await page.getByLabel('Disk size (GiB)').inputValue()).toBe('80');
    // The region lists both images; the settings keep the arm64 one, and no GPU image.
    const listed = page.getByRole('listitem').filter({ hasText: `${image} · arm64 ${arm}` });
    await listed.waitFor();
    expect(await call('GET', `/api/v2/setup/account/${slug}/aws/settings`)).toMatchObject({
      amis: { 'us-east-1': image },
      arm_amis: { 'us-east-1': arm },
      gpu_amis: {},
    });
    await page.setViewportSize({ width: 1440, height: 900 });
    await listed.scrollIntoViewIfNeeded();
    await session.screenshot('cloud-setup-images-1440');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByLabel('GPU image in us-east-1').scrollIntoViewIfNeeded();
    await session.screenshot('cloud-setup-images-390');
    await page.setViewportSize({ width: 1280, height: 900 });
    await session.screenshot('cloud-setup', { fullPage: true });

    // Data access: a bad bucket name is shown at its field; good ones become the instance role's policy.
    await page.getByLabel('Buckets to read', { exact: true }).fill('Team_Data');
    await page.getByRole('button', { name: 'Save data access' }).click();
    await page
      .getByText('Team_Data: a bucket name has lowercase letters, digits, dots and hyphens')
      .waitFor();
    await page.getByLabel('Buckets to read', { exact: true }).fill('team-data\nshared.results');
    await page.getByLabel('Buckets to read and write').fill('team-scratch');
    await page.getByRole('button', { name: 'Save data access' }).click();
    await page.getByRole('status').filter({ hasText: 'Data access saved' }).waitFor();
    const settings = await call('GET', `/api/v2/setup/account/${slug}/aws/settings`);
    expect(settings).toMatchObject({
      s3_read_buckets: ['team-data', 'shared.results'],
      s3_read_write_buckets: ['team-scratch'],
    });
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByText('4. Data access').scrollIntoViewIfNeeded();
    await session.screenshot('cloud-setup-data-access-1440');

    await page.setViewportSize({ width: 390, height: 844 });
    await eventually(async () =>
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0),
    );
    await session.screenshot('cloud-setup-390');
    await page.getByText('4. Data access').scrollIntoViewIfNeeded();
    await session.screenshot('cloud-setup-data-access-390');
    await page.setViewportSize({ width: 1280, height: 900 });

    // Deleting the keys while a cluster runs on them: the confirm dialog, then waiting while it stops.
    const cluster = await call('POST', `/api/v2/clusters/account/${slug}/`, { name: 'in-aws', workers: 1 });
    expect((await call('GET', `/api/v2/clusters/account/${slug}/id/${cluster.id}`)).backend_type).toBe(
      'vm_aws',
    );
    await page.getByRole('button', { name: 'Delete' }).first().click();
    const confirm = page.getByRole('alertdialog');
    await confirm
      .getByText(
        '1 cluster (in-aws) run in AWS with these credentials. Deleting the AWS credentials stops it first. Continue?',
      )
      .waitFor();
    await session.screenshot('cloud-setup-delete-confirm');
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('button', { name: 'Save credentials' }).waitFor({ timeout: 120_000 });
    await confirm.waitFor({ state: 'detached' });
    expect((await call('GET', `/api/v2/clusters/account/${slug}/id/${cluster.id}`)).current_state.state).toBe(
      'stopped',
    );

    // Role assumption without keys: the template to download, the console's steps, then the role ARN.
    await page.getByRole('tab', { name: 'Role assumption' }).click();
    await page.getByRole('button', { name: 'Start CloudFormation setup' }).click();
    await page.getByText('Waiting for the role…').waitFor();
    const rolePanel = page.getByRole('tabpanel', { name: 'Role assumption' });
    await rolePanel.getByText('arn:aws:iam::123456789012:user/cumulus-tests').first().waitFor();
    await rolePanel.getByRole('link', { name: 'CloudFormation console' }).waitFor();
    expect(await rolePanel.getByRole('link', { name: 'Open in AWS CloudFormation' }).count()).toBe(0);
    await session.screenshot('cloud-setup-role', { fullPage: true });
    const roleArn = await makeRoleStack(page);
    await page.getByLabel("Role ARN (the stack's RoleArn output)").fill(roleArn);
    await page.getByRole('button', { name: 'Complete setup' }).click();
    await page.getByText('Role assumption saved').waitFor();
    await page.getByText('AWS (EC2, your account)').waitFor({ timeout: 30_000 });

    // Replacing that role while a cluster runs asks first, through the same dialog; cancelled, nothing changes.
    await call('POST', `/api/v2/clusters/account/${slug}/`, { name: 'on-role', workers: 1 });
    await page.reload();
    await page.getByRole('tab', { name: 'Role assumption' }).click();
    await page.getByRole('button', { name: 'Start CloudFormation setup' }).click();
    const otherRole = await makeRoleStack(page);
    await page.getByLabel("Role ARN (the stack's RoleArn output)").fill(otherRole);
    await page.getByRole('button', { name: 'Complete setup' }).click();
    await confirm
      .getByText(
        '1 cluster (on-role) run in AWS with these credentials. Replacing the AWS credentials stops it first. Continue?',
      )
      .waitFor();
    await session.screenshot('cloud-setup-complete-confirm');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect((await call('GET', `/api/v2/cloud-credentials/${slug}/aws`)).summary.role_arn).toBe(roleArn);
    expect(
      (await call('GET', `/api/v2/clusters/account/${slug}/`)).find(
        (c: { name: string }) => c.name === 'on-role',
      ).current_state.state,
    ).not.toBe('stopped');

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
    await page.keyboard.press('Escape');

    // A cluster with its own firewall (what the Python client sends): its Instances tab says what is open to whom.
    const walled = await call('POST', `/api/v2/clusters/account/${slug}/`, {
      name: 'walled',
      workers: 1,
      options: {
        firewall_spec: {
          ingress: [
            { ports: [8786], cidr: '198.51.100.7/32' },
            { ports: [22], cidr: '203.0.113.0/24' },
          ],
        },
      },
    });
    await page.goto(`/clusters/${walled.id}/instances?account=${slug}`);
    const firewall = page.getByRole('region', { name: 'Firewall' });
    await firewall.getByText('198.51.100.7/32').waitFor();
    expect(await firewall.getByRole('listitem').allTextContents()).toEqual([
      // No VM boots here: the scheduler's port is named once it listens.
      '198.51.100.7/32port 8786',
      '203.0.113.0/24port 22 (SSH)',
    ]);
    await page.setViewportSize({ width: 1440, height: 900 });
    await session.screenshot('cluster-firewall-1440');
    await page.setViewportSize({ width: 390, height: 844 });
    await session.screenshot('cluster-firewall-390');
    await page.setViewportSize({ width: 1280, height: 900 });
    await call('DELETE', `/api/v2/clusters/account/${slug}/id/${walled.id}`);
    expectNoConsoleErrors(session.errors);
  }, 420_000);
});
