import { describe, expect, it } from 'vitest';

import { createVerifiedUser, json } from './harness/api';
import { expectNoConsoleErrors, signIn } from './harness/journeys';
import { consoleSuite } from './harness/suite';

const suite = consoleSuite();

describe('terminal sign-in', () => {
  it('approves a pending token in the browser with the code the terminal printed; the token then acts as the user', async () => {
    const user = await createVerifiedUser(suite.server.base, suite.server.smtp, 'terminal');
    // What `cumulus login` does: a pending token, form-encoded, no credentials.
    const pending = await json(
      await fetch(`${suite.server.base}/api/v1/api-tokens-no-user/`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ label: 'ada@laptop' }),
      }),
    );
    const me = () =>
      fetch(`${suite.server.base}/api/v2/user/me`, {
        headers: { authorization: `ApiToken ${pending.token}` },
      });
    expect((await me()).status).toBe(401);

    const session = await suite.open();
    const { page } = session;
    await page.goto(`/activate-token?id=${pending.identifier}`);
    await page.waitForURL(`**/login?return-to=%2Factivate-token%3Fid%3D${pending.identifier}`);
    await signIn(page, user);
    await page.waitForURL(`**/activate-token?id=${pending.identifier}`);
    await page.getByRole('heading', { name: 'Confirm Access Request' }).waitFor();
    await page.getByText('A client application is requesting access to act as you.').waitFor();
    await page.getByRole('button', { name: user.email }).waitFor();
    // The page does not show the terminal's code: the person approving types it.
    expect(await page.content()).not.toContain(pending.user_code);
    const code = page.getByLabel('Code from your terminal');
    expect(await page.getByRole('button', { name: 'Authorize Access' }).isDisabled()).toBe(true);
    await session.screenshot('activate-token');

    // A wrong code is refused, says so, and approves nothing.
    await code.fill('BBBB-BBBB');
    await page.getByRole('button', { name: 'Authorize Access' }).click();
    await page
      .getByText('That code does not match the one shown in your terminal (4 tries left).', { exact: true })
      .waitFor();
    expect((await me()).status).toBe(401);
    await session.screenshot('activate-token-wrong-code');

    // The terminal's code, typed as people type it (lower case), approves.
    await code.fill(pending.user_code.toLowerCase());
    await page.getByRole('button', { name: 'Authorize Access' }).click();
    await page.getByRole('heading', { name: 'Authorized' }).waitFor();
    await page.getByText('Authentication successful, you can close this window now.').waitFor();
    await session.screenshot('activate-token-authorized');

    const answer = await me();
    expect(answer.status).toBe(200);
    expect((await answer.json()).username).toBe(user.username);

    // The same id again has nothing pending any more.
    await page.goto(`/activate-token?id=${pending.identifier}`);
    await page.getByLabel('Code from your terminal').fill(pending.user_code);
    await page.getByRole('button', { name: 'Authorize Access' }).click();
    await page.getByRole('heading', { name: 'Something went wrong...' }).waitFor();

    await page.goto('/activate-token');
    await page.getByRole('heading', { name: 'Token Missing' }).waitFor();
    await page.getByText('/activate-token?id=...').waitFor();
    await session.screenshot('activate-token-missing');
    expectNoConsoleErrors(session.errors);
  });
});
