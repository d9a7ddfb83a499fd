import { afterAll, describe, expect, it } from 'vitest';

import { TxtDnsServer } from '../../server/test/helpers/dns-server';
import { TestOidcProvider } from '../../server/test/helpers/oidc-provider';
import { freePort } from '../../server/test/helpers/wait';
import { apiAs, createVerifiedUser, linkIn, uniqueName } from './harness/api';
import { eventually, expectNoConsoleErrors, pickOrganization, signIn, storedToken } from './harness/journeys';
import { expectFits } from './harness/layout';
import { consoleSuite } from './harness/suite';

// An organization admin sets up the organization's own SSO in the console (connection, a domain
// proven by a TXT record at a real local DNS server), then a new colleague signs in through it:
// the real `oidc-provider` on a local port, from the login page's SSO path with their work email.
const dns = new TxtDnsServer();
const dnsAddress = await dns.start();
const STAFF_EMAIL = `${uniqueName('root')}@example.com`;
// Each test's provider runs on this machine, at a port chosen now: the operator allows their
// issuers, as an organization's connection may use no other private address.
const ports = { acme: await freePort(), globex: await freePort() };
const allowed = [ports.acme, ports.globex].map((port) => `http://127.0.0.1:${port}`).join(',');
const suite = consoleSuite({
  env: {
    CUMULUS_DNS_SERVERS: dnsAddress,
    CUMULUS_STAFF_EMAILS: STAFF_EMAIL,
    CUMULUS_SSO_ALLOWED_ISSUERS: allowed,
  },
});
afterAll(() => dns.stop());

describe('organization SSO', () => {
  it('an admin connects the organization, proves a domain, and a colleague signs in through SSO', async () => {
    const base = suite.server.base;
    const idp = new TestOidcProvider(
      {
        clientId: 'acme-console',
        clientSecret: 'acme-console-secret-0123',
        redirectUris: [`${base}/auth/sso/callback`],
      },
      { port: ports.acme },
    );
    await idp.start();
    try {
      const admin = await createVerifiedUser(base, suite.server.smtp, 'ssoadmin');
      const api = await apiAs(base, admin);
      const org = await api.call('POST', '/api/v2/users/organizations/create', {
        name: uniqueName('Acme ').slice(0, 30),
      });
      const domain = `${uniqueName('acme')}.example.org`;

      const { page, screenshot } = await suite.open();
      await page.goto('/team');
      await signIn(page, admin, { firstTime: true });
      await page.goto(`/team?tab=sso`);
      // The current scope is the admin's personal organization: pick the new one.
      await pickOrganization(page, org.name);
      await page.getByRole('tab', { name: 'Single sign-on' }).click();

      await page.getByLabel('Issuer URL').fill(idp.issuer);
      await page.getByLabel('Client ID').fill(idp.client.clientId);
      await page.getByLabel('Client secret').fill(idp.client.clientSecret);
      await page.getByRole('button', { name: 'Save connection' }).click();
      await page.getByText('Saved.').waitFor();
      expect(await page.getByRole('switch', { name: 'Require SSO' }).isDisabled()).toBe(true);

      await page.getByLabel('Domain').fill(domain);
      await page.getByRole('button', { name: 'Add domain' }).click();
      const value = page.locator('dd').filter({ hasText: 'cumulus-domain-verification=' });
      await value.waitFor();
      await screenshot('sso-org-settings', { fullPage: true });
      // Before the record is published the server says it is missing.
      const missing = page.waitForResponse((r) => r.url().endsWith('/verify'));
      await page.getByRole('button', { name: `Verify ${domain}` }).click();
      expect((await missing).status()).toBe(400);
      await page.getByText('was found at').waitFor();
      dns.records.set(domain, [(await value.textContent()) ?? '']);
      await page.getByRole('button', { name: `Verify ${domain}` }).click();
      await page.getByText('Verified', { exact: true }).waitFor();
      expect(await page.getByRole('switch', { name: 'Require SSO' }).isDisabled()).toBe(false);
      await screenshot('sso-org-settings-verified', { fullPage: true });

      // A colleague who has no Cumulus account yet signs in with their work email.
      const colleague = await suite.open();
      idp.nextAccount = {
        sub: uniqueName('sub'),
        email: `ada@${domain}`,
        email_verified: true,
        name: 'Ada Lovelace',
      };
      await colleague.page.goto('/login');
      await colleague.page.getByLabel('Username or email').fill(`ada@${domain}`);
      await colleague.screenshot('sso-login');
      await colleague.page.getByRole('button', { name: 'Use SSO with the work email above' }).click();
      await colleague.page.getByRole('dialog', { name: 'Welcome to Cumulus' }).waitFor({ timeout: 60_000 });
      await colleague.page.getByRole('button', { name: 'Skip' }).click();
      await colleague.page.goto('/profile');
      const methods = colleague.page.locator('#sign-in-methods');
      await methods.getByText(`ada@${domain}`).waitFor();
      await methods.scrollIntoViewIfNeeded();
      await colleague.screenshot('sso-profile-sign-in-methods');

      const phone = await suite.open({ width: 390, height: 844 });
      await phone.page.goto('/login');
      await phone.screenshot('sso-login-390', { fullPage: true });
      await phone.page.goto('/team?tab=sso');
      await signIn(phone.page, admin);
      await pickOrganization(phone.page, org.name);
      await phone.page.getByRole('tab', { name: 'Single sign-on' }).click();
      await phone.page.getByText('Verified', { exact: true }).waitFor();
      await phone.screenshot('sso-org-settings-390', { fullPage: true });
    } finally {
      await idp.stop();
    }
  });

  it('staff mark a domain verified; a password user links their SSO sign-in by the mailed link', async () => {
    const base = suite.server.base;
    const idp = new TestOidcProvider(
      {
        clientId: 'globex-console',
        clientSecret: 'globex-console-secret-0123',
        redirectUris: [`${base}/auth/sso/callback`],
      },
      { port: ports.globex },
    );
    await idp.start();
    try {
      // An organization with its connection and a domain it cannot prove by DNS (set up over HTTP).
      const admin = await createVerifiedUser(base, suite.server.smtp, 'globexadmin');
      const adminApi = await apiAs(base, admin);
      const org = await adminApi.call('POST', '/api/v2/users/organizations/create', {
        name: uniqueName('Globex ').slice(0, 30),
      });
      const sso = `/api/v2/users/organizations/sso/${org.id}`;
      await adminApi.call('PUT', `${sso}/connection`, {
        issuer: idp.issuer,
        client_id: idp.client.clientId,
        client_secret: idp.client.clientSecret,
        join_workspace_ids: [],
      });
      const domain = `${uniqueName('globex')}.example.org`;
      await adminApi.call('POST', `${sso}/domains`, { domain });

      // Staff decide: the SSO domains tab lists it; marking it verified asks first.
      const staff = await createVerifiedUser(base, suite.server.smtp, 'root', { email: STAFF_EMAIL });
      const staffPhone = await suite.open({ width: 390, height: 844 });
      await staffPhone.page.goto('/staff?tab=sso-domains');
      await signIn(staffPhone.page, staff, { firstTime: true });
      const mark = `Mark ${domain} verified for ${org.name}`;
      await staffPhone.page.getByRole('button', { name: mark }).waitFor();
      await expectFits(staffPhone.page, 'Staff, SSO domains');
      await staffPhone.screenshot('staff-sso-domains-390', { fullPage: true });

      const desk = await suite.open();
      await desk.page.goto('/staff?tab=sso-domains');
      await signIn(desk.page, staff);
      await desk.page.getByRole('tab', { name: 'SSO domains', selected: true }).waitFor();
      await desk.page.getByRole('button', { name: mark }).click();
      const confirm = desk.page.getByRole('alertdialog', { name: `Mark ${domain} verified?` });
      await confirm.getByText(`${org.name} will sign in everyone with an address at ${domain}`).waitFor();
      await desk.screenshot('staff-sso-domains-confirm');
      // Cancel changes nothing; then confirm.
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      const pending = await adminApi.call('GET', sso);
      expect(pending.domains.find((d: { domain: string }) => d.domain === domain).verified).toBe(false);
      await desk.page.getByRole('button', { name: mark }).click();
      await confirm.getByRole('button', { name: 'Mark verified' }).click();
      await desk.page.getByText(`${domain} is verified for ${org.name}`).waitFor();
      await desk.page.getByRole('button', { name: mark }).waitFor({ state: 'detached' });
      await desk.screenshot('staff-sso-domains', { fullPage: true });
      const decided = await adminApi.call('GET', sso);
      expect(decided.domains.find((d: { domain: string }) => d.domain === domain)).toMatchObject({
        verified: true,
        verified_by: 'staff',
      });
      expectNoConsoleErrors(desk.errors);

      // Someone with a password account at that domain signs in through SSO for the first time.
      const owner = await createVerifiedUser(base, suite.server.smtp, 'lin', {
        email: `${uniqueName('lin')}@${domain}`,
      });
      idp.nextAccount = { sub: uniqueName('sub'), email: owner.email, email_verified: true, name: 'Lin Ko' };
      const { page, screenshot, errors } = await suite.open();
      await page.goto('/login');
      await page.getByLabel('Username or email').fill(owner.email);
      await page.getByRole('button', { name: 'Use SSO with the work email above' }).click();
      await page
        .getByText('You already have an account for the email associated with your SSO account')
        .waitFor({
          timeout: 60_000,
        });
      await page.getByRole('button', { name: 'Email me a link to my account instead' }).click();
      await page.getByRole('heading', { name: 'Check your email' }).waitFor();
      await page.getByRole('status').getByText(`We sent a link to ${owner.email}.`).waitFor();
      expect(await page.getByRole('alert').count()).toBe(0);
      await screenshot('sso-link-mailed');
      const mail = await suite.server.smtp.waitFor(
        owner.email,
        (m) => m.text.includes('/link-identity/'),
        30_000,
      );
      const link = linkIn(mail, /http:\/\/\S+\/link-identity\/[0-9a-f]{48}/);

      // Opening the link does nothing by itself (a mail scanner could open it).
      const phone = await suite.open({ width: 390, height: 844 });
      await phone.page.goto(link);
      await phone.page.getByRole('heading', { name: 'Link your SSO sign-in' }).waitFor();
      await phone.page.getByText(owner.username, { exact: true }).waitFor();
      await expectFits(phone.page, 'Link a sign-in');
      await phone.screenshot('sso-link-identity-390', { fullPage: true });

      await page.goto(link);
      const linkButton = page.getByRole('button', { name: 'Link and sign in' });
      await linkButton.waitFor();
      expect(await storedToken(page)).toBeNull();
      await linkButton.focus();
      await screenshot('sso-link-identity');
      await page.keyboard.press('Enter');
      // Signed in, on Profile, where the linked SSO sign-in is listed.
      await page.waitForURL('**/profile**');
      await page.getByRole('dialog', { name: 'Welcome to Cumulus' }).waitFor();
      await page.getByRole('button', { name: 'Skip' }).click();
      expect(await storedToken(page)).not.toBeNull();
      const methods = page.locator('#sign-in-methods');
      await methods.getByText(owner.email).first().waitFor();
      await methods.scrollIntoViewIfNeeded();
      await screenshot('sso-link-identity-linked');
      const ownerApi = await apiAs(base, owner);
      const identities = await ownerApi.call('GET', '/api/v2/user/identities');
      expect(identities).toMatchObject([{ provider: 'sso', email: owner.email }]);
      expectNoConsoleErrors(errors);

      // The link was used: opened again it says so, and leads back to the login page.
      await phone.page.reload();
      await phone.page.getByRole('heading', { name: 'This link cannot be used' }).waitFor();
      await phone.page.getByRole('button', { name: 'Link and sign in' }).waitFor({ state: 'detached' });
      await phone.page
        .getByText('This link is not valid: it was already used, has expired, or was replaced.', {
          exact: false,
        })
        .waitFor();
      await phone.screenshot('sso-link-identity-used-390', { fullPage: true });
      const stranger = await suite.open();
      await stranger.page.goto(link);
      await stranger.page.getByRole('heading', { name: 'This link cannot be used' }).waitFor();
      await stranger.screenshot('sso-link-identity-used');
      await stranger.page.getByRole('link', { name: 'Go to login' }).click();
      await stranger.page.waitForURL('**/login**');
      expect(await storedToken(stranger.page)).toBeNull();

      // The linked identity now signs its owner straight in.
      const again = await suite.open();
      await again.page.goto('/login');
      await again.page.getByLabel('Username or email').fill(owner.email);
      await again.page.getByRole('button', { name: 'Use SSO with the work email above' }).click();
      await eventually(async () => {
        expect(new URL(again.page.url()).pathname).not.toMatch(/^\/(auth|login)/);
        expect(await storedToken(again.page)).not.toBeNull();
      }, 60_000);
    } finally {
      await idp.stop();
    }
  });
});
