import { describe, expect, it } from 'vitest';

import { createVerifiedUser, linkIn, PASSWORD, uniqueName, verificationLink } from './harness/api';
import { eventually, expectNoConsoleErrors, signIn } from './harness/journeys';
import { consoleSuite } from './harness/suite';

const suite = consoleSuite();

describe('public pages', () => {
  it('signs up, verifies by the mailed link, signs in and returns to the page it started on', async () => {
    const session = await suite.open();
    const { page } = session;
    const username = uniqueName('ada');
    const email = `${username}@example.com`;

    // A protected page sends a visitor to login, carrying path plus query.
    await page.goto('/team?tab=workspaces');
    await page.waitForURL('**/login?return-to=%2Fteam%3Ftab%3Dworkspaces');
    await page.getByRole('heading', { name: 'Sign in to Cumulus' }).waitFor();
    await session.screenshot('login');

    // Providers this server has not configured offer no button that leads nowhere.
    for (const provider of ['Google', 'GitHub', 'SSO'])
      expect(await page.getByRole('button', { name: `Continue with ${provider}` }).count()).toBe(0);

    // The return-to travels to sign-up.
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.waitForURL('**/signup?return-to=%2Fteam%3Ftab%3Dworkspaces');
    await page.getByRole('button', { name: 'Create Account' }).click();
    for (const message of [
      'Full name is required',
      'Username is required',
      'Work email is required',
      'Password is required',
    ]) {
      await page.getByText(message, { exact: true }).waitFor();
    }
    await page.getByLabel('Username').fill('Not Valid');
    await page.getByLabel('Work email').fill('nope');
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByLabel('Confirm password').fill('different');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page
      .getByText(
        'Enter a valid username. Usernames may contain only lowercase letters, numbers, hyphens and underscores.',
      )
      .waitFor();
    await page.getByText('Invalid email', { exact: true }).waitFor();
    await page.getByText('Passwords must match', { exact: true }).waitFor();
    await session.screenshot('signup-errors');

    await page.getByLabel('Full name').fill('Ada Lovelace');
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Work email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.waitForURL('**/verify-email-sent?return-to=%2Fteam%3Ftab%3Dworkspaces');
    await page.getByText(email).waitFor();
    await session.screenshot('verify-email-sent');

    // Signing in before verifying says so, with a way to get another email.
    await page.goto('/login');
    await page.getByLabel('Username or email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page
      .getByText(
        'We need to confirm your email address. Please check your email or request another confirmation email.',
      )
      .waitFor();
    await page.getByRole('link', { name: 'Resend the confirmation email' }).waitFor();

    // The mailed link verifies the account, then goes to sign in after 3 s.
    await page.goto(await verificationLink(suite.server.smtp, email));
    await page.getByRole('heading', { name: 'Email Verified' }).waitFor();
    await session.screenshot('email-verified');
    await page.waitForURL('**/login?open=true');
    // open=true puts the cursor in the first field.
    await eventually(async () =>
      expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('usernameOrEmail'),
    );

    // A key that is not one says so.
    await page.goto('/verify-email-confirm/not-a-key');
    await page
      .getByText(
        'Invalid activation key provided. If you believe this is in error, please get in touch with us.',
      )
      .waitFor();

    // Wrong password, then the right one: back where the visitor started.
    await page.goto('/team?tab=workspaces');
    await page.waitForURL('**/login?return-to=*');
    await page.getByLabel('Username or email').fill(username);
    await page.getByLabel('Password').fill('Wrong-password-123');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('We were unable to log you in with those credentials.').waitFor();
    await session.screenshot('login-error');
    await signIn(page, { username, password: PASSWORD }, { firstTime: true });
    await page.waitForURL('**/team?tab=workspaces');
    await page.getByRole('heading', { name: 'Team', level: 1 }).waitFor();
    expectNoConsoleErrors(session.errors);
  });

  it('resets a forgotten password from the mailed link', async () => {
    const session = await suite.open();
    const { page } = session;
    const user = await createVerifiedUser(suite.server.base, suite.server.smtp, 'reset');

    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByRole('heading', { name: 'Reset Password' }).waitFor();
    await page.getByLabel('Email').fill('not an email');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText('invalid email', { exact: true }).waitFor();
    await page.getByLabel('Email').fill(user.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText('An email with a link to reset your password has been sent.').waitFor();
    await session.screenshot('forgot-password-sent');

    const mail = await suite.server.smtp.waitFor(
      user.email,
      (m) => m.text.includes('/reset-password/key/'),
      30_000,
    );
    const link = linkIn(mail, /http:\/\/\S+\/reset-password\/key\/[\w-]+\/[a-f0-9]+/);
    await page.goto(link);
    const first = page.getByLabel('New password', { exact: true });
    const second = page.getByLabel('Confirm new password');
    await first.fill('Another-passphrase-7');
    await second.fill('Something-else-entirely-8');
    await first.focus();
    await page.getByText('passwords must match', { exact: true }).waitFor();
    // The server's rules come back on the field, joined with commas.
    await first.fill('1234567890');
    await second.fill('1234567890');
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.getByText('This password is too common., This password is entirely numeric.').waitFor();
    await session.screenshot('reset-password-errors');

    const newPassword = 'Another-passphrase-7';
    await first.fill(newPassword);
    await second.fill(newPassword);
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.getByRole('heading', { name: 'Password Reset Confirmed' }).waitFor();
    await page.waitForURL('**/login?open=true');
    await signIn(page, { username: user.username, password: newPassword }, { firstTime: true });

    // A used link fails, replacing the form under 'Reset Email'.
    await page.goto(link);
    await page.getByLabel('New password', { exact: true }).fill('Third-passphrase-99');
    await page.getByLabel('Confirm new password').fill('Third-passphrase-99');
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.getByRole('heading', { name: 'Reset Email' }).waitFor();
    await page
      .getByText(
        'Invalid token provided. Please try again. If you believe this is in error, please get in touch with us.',
      )
      .waitFor();
    await eventually(() => expectNoConsoleErrors(session.errors));
  });
});
