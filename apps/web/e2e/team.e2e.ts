import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { apiAs, createVerifiedUser, linkIn, PASSWORD, uniqueName } from './harness/api';
import { eventually, expectNoConsoleErrors, pickOrganization, signIn, storedToken } from './harness/journeys';
import { consoleSuite } from './harness/suite';

const suite = consoleSuite();

/** Workspace and organization names are 4 to 34 characters and workspace names globally unique. */
const teamName = (prefix: string) => uniqueName(prefix).slice(0, 30);

/** Opens the Team page's Add menu and answers its items. */
async function openAddMenu(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  const menu = page.getByRole('menu');
  await menu.waitFor();
  return menu;
}

/** The reason an unavailable control gives in its tooltip (section 6's admin tooltips). */
async function tooltipOf(page: Page, control: Locator): Promise<string> {
  await control.locator('xpath=ancestor::span[@data-disabled-reason][1]').hover();
  // A tooltip left before stays in the page while it closes.
  const tooltip = page.locator('[role=tooltip]:not([data-state=closed])');
  await tooltip.waitFor();
  return (await tooltip.textContent())?.trim() ?? '';
}

/**
 * Picks a workspace in the Scope picker and waits for the picker to name it. Right after a sign-in
 * the picker renders again as the user's data loads, and a click can be lost with the element it
 * landed on: the whole pick is tried again until the picker names the workspace.
 */
async function pickScopeOf(
  page: Page,
  workspace: string,
  option: { name: string | RegExp; exact?: boolean },
) {
  const trigger = page.getByRole('combobox', { name: /^Scope/ });
  const search = page.getByRole('combobox', { name: 'Search scopes' });
  const picked = page.getByRole('combobox', { name: new RegExp(`^Scope: ${workspace}`) });
  await eventually(async () => {
    if ((await trigger.getAttribute('aria-expanded')) !== 'true') await trigger.click();
    await search.waitFor({ timeout: 5_000 });
    await search.fill(workspace);
    await page.getByRole('option', option).click({ timeout: 5_000 });
    await picked.waitFor({ timeout: 5_000 });
  }, 60_000);
}

const toast = (page: Page, text: string) =>
  page.locator('[data-sonner-toast]').filter({ hasText: text }).first().waitFor();

describe('Team', () => {
  it('an admin creates an organization and a workspace, invites a teammate by email, and the teammate joins through the mailed link', async () => {
    const base = suite.server.base;
    const adminSession = await suite.open();
    const { page } = adminSession;
    const admin = await createVerifiedUser(base, suite.server.smtp, 'admin');
    const organization = teamName('Labs ');
    const workspace = teamName('ml-');
    const teammateEmail = `${uniqueName('grace')}@example.com`;

    await page.goto('/team');
    await signIn(page, admin, { firstTime: true });
    await page.waitForURL('**/team');
    await page.getByRole('heading', { name: 'Team', level: 1 }).waitFor();

    // Add > Organization: the name rules, then the new organization becomes the scope.
    let menu = await openAddMenu(page);
    await menu.getByRole('menuitem', { name: 'Organization' }).click();
    await page.waitForURL('**/team/create-organization');
    await page.getByRole('heading', { name: 'Create Organization', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Create Organization' }).click();
    await page.getByText('Organization name is required', { exact: true }).waitFor();
    await page.getByLabel('Organization name').fill('abc');
    await page.getByRole('button', { name: 'Create Organization' }).click();
    await page.getByText('Must be at least 4 characters', { exact: true }).waitFor();
    await page.getByLabel('Organization name').fill(organization);
    await adminSession.screenshot('team-create-organization');
    await page.getByRole('button', { name: 'Create Organization' }).click();
    await toast(page, 'Organization created');
    // It goes on to the organization's first workspace, the scope staying where it was (an
    // organization without a workspace would leave the sidebar on "No workspace of yours").
    await page.waitForURL(/\/team\/\d+\/create-workspace$/);
    expect(await page.getByText('No workspace of yours').count()).toBe(0);

    // Create Workspace: back on the Team page with the default-workspace banner.
    const organizationId = Number(new URL(page.url()).pathname.split('/')[2]);
    await page.getByRole('heading', { name: 'Create Workspace', level: 1 }).waitFor();
    await page.getByText(`A new workspace in ${organization}.`).waitFor();
    // Workspace names are unique across the server: the admin's personal workspace has this one.
    await page.getByLabel('Workspace name').fill(admin.username);
    await page.getByRole('button', { name: 'Create Workspace' }).click();
    await page.getByText('Workspace names must be globally unique', { exact: true }).waitFor();
    await page.getByLabel('Workspace name').fill(workspace);
    await adminSession.screenshot('team-create-workspace');
    await page.getByRole('button', { name: 'Create Workspace' }).click();
    await toast(page, 'Workspace created');
    // The banner's parameter is removed once read.
    await page.waitForURL(/\/team$/);
    await page.getByText('The new workspace is not your default').waitFor();
    await page.getByText(`Your default workspace is still ${admin.username}.`, { exact: false }).waitFor();
    const card = page.getByRole('region', { name: workspace });
    await card.getByText(admin.username).first().waitFor();

    // The workspace's credit limit: checked, then saved.
    const creditLimit = card.getByLabel('Workspace credit limit');
    await creditLimit.fill('-5');
    await card.getByText('Credit limit must be greater than or equal to 0').waitFor();
    await creditLimit.fill('2500');
    await card.getByRole('button', { name: 'Save' }).click();
    await toast(page, `Credit limit of ${workspace} saved`);
    await adminSession.screenshot('team-workspaces-tab');

    // Add > Teammate: the sole workspace is pre-selected with the default limits.
    menu = await openAddMenu(page);
    await menu.getByRole('menuitem', { name: 'Teammate' }).click();
    await page.waitForURL(`**/team/${organizationId}/add-member`);
    await page.getByRole('heading', { name: 'Add Member', level: 1 }).waitFor();
    expect(await page.getByRole('checkbox', { name: `Access to ${workspace}` }).isChecked()).toBe(true);
    expect(await page.getByLabel(`Core Limit for ${workspace}`).inputValue()).toBe('1000');
    expect(await page.getByLabel(`Credit Limit for ${workspace}`).inputValue()).toBe('100000');
    await page.getByRole('button', { name: 'Add Member' }).click();
    await page.getByText('Username or Email is required', { exact: true }).waitFor();
    await page.getByLabel('Username or Email').fill('nobody-by-this-name');
    await page.getByRole('button', { name: 'Add Member' }).click();
    await page
      .getByText(
        'Could not find a user with the username nobody-by-this-name. Enter their email address to invite them.',
      )
      .waitFor();
    await page.getByLabel('Username or Email').fill(teammateEmail);
    await page.getByLabel(`Core Limit for ${workspace}`).fill('64');
    await adminSession.screenshot('team-add-member');
    await page.getByRole('button', { name: 'Add Member' }).click();
    await toast(page, `Invitation sent to ${teammateEmail}`);
    await page.waitForURL('**/team?tab=team');
    const inviteRow = page.getByRole('row').filter({ hasText: teammateEmail });
    await inviteRow.getByText('Invitation not yet accepted').waitFor();
    await inviteRow.getByRole('button', { name: `Resend invite to ${teammateEmail}` }).waitFor();
    await page.getByRole('row').filter({ hasText: admin.username }).getByText('Organization admin').waitFor();
    await adminSession.screenshot('team-team-tab-invite');

    // Resend Invite mails the invitation again.
    await inviteRow.getByRole('button', { name: `Resend invite to ${teammateEmail}` }).click();
    await toast(page, 'Invite email resent');
    const invitations = () =>
      suite.server.smtp.mails.filter(
        (m) => m.to.includes(teammateEmail) && m.text.includes('/signup?invite='),
      );
    await eventually(() => expect(invitations().length).toBe(2));

    // The invite's own edit page: the address is fixed, the limits are the invitation's.
    await inviteRow.getByRole('link', { name: `Edit ${teammateEmail}` }).click();
    await page.waitForURL(new RegExp(`/team/${organizationId}/edit-invite/\\d+$`));
    await page.getByRole('heading', { name: 'Edit Invite', level: 1 }).waitFor();
    expect(await page.getByLabel('Username or Email').inputValue()).toBe(teammateEmail);
    expect(await page.getByLabel('Username or Email').isDisabled()).toBe(true);
    expect(await page.getByLabel(`Core Limit for ${workspace}`).inputValue()).toBe('64');
    await adminSession.screenshot('team-edit-invite');
    await page.getByRole('link', { name: 'Cancel' }).click();
    await page.waitForURL('**/team?tab=team');

    // The invitation arrives by mail, naming the organization and the workspace. A resend mints a
    // new token: the first mail's link no longer names the invitation, the latest mail's does.
    const [firstMail, mail] = invitations();
    expect(mail!.subject).toContain(organization);
    expect(mail!.text).toContain(workspace);
    const signupLink = linkIn(mail!, /http:\/\/\S+\/signup\?invite=\S+/);
    const staleLink = linkIn(firstMail!, /http:\/\/\S+\/signup\?invite=\S+/);

    // The teammate signs up through the link, with the invited address filled in.
    const teammateSession = await suite.open();
    const teammatePage = teammateSession.page;
    const teammate = { username: uniqueName('grace'), password: PASSWORD };
    // The link carries an unguessable token, not the invite's id.
    expect(new URL(signupLink).searchParams.get('invite')).toMatch(/^[0-9a-f]{64}$/);
    await teammatePage.goto(staleLink);
    await teammatePage.getByText('This invitation link is no longer valid', { exact: false }).waitFor();
    // The latest link: the page says who invites them, to what.
    await teammatePage.goto(signupLink);
    await teammatePage
      .getByRole('status')
      .filter({ hasText: `invited you to join ${organization} (${workspace})` })
      .waitFor();
    await teammateSession.screenshot('team-signup-invited');
    expect(await teammatePage.getByLabel('Work email').inputValue()).toBe(teammateEmail);
    await teammatePage.getByLabel('Full name').fill('Grace Hopper');
    await teammatePage.getByLabel('Username').fill(teammate.username);
    await teammatePage.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await teammatePage.getByLabel('Confirm password').fill(PASSWORD);
    await teammatePage.getByRole('button', { name: 'Create Account' }).click();
    // The invitation's link proved the address: no verification email to open, straight to sign-in.
    await teammatePage.waitForURL('**/login**');
    await signIn(teammatePage, teammate, { firstTime: true });

    // The teammate sees the organization's workspace, with the limits of the invitation.
    await teammatePage.goto('/team');
    await pickOrganization(teammatePage, organization);
    const teammateCard = teammatePage.getByRole('region', { name: workspace });
    const ownRow = teammateCard.getByRole('row').filter({ hasText: teammate.username });
    await ownRow.waitFor();
    expect(await ownRow.textContent()).toContain('64');
    expect(await teammateCard.getByText('Invitation not yet accepted').count()).toBe(0);
    // ... and can pick it as the Dashboard's scope.
    await teammatePage.goto('/clusters');
    await pickScopeOf(teammatePage, workspace, { name: new RegExp(workspace) });
    expectNoConsoleErrors(teammateSession.errors);

    // The invite became a membership: adding the teammate again leads to their edit page.
    await page.reload();
    await page.getByRole('row').filter({ hasText: teammate.username }).waitFor();
    expect(await page.getByText('Invitation not yet accepted').count()).toBe(0);
    menu = await openAddMenu(page);
    await menu.getByRole('menuitem', { name: 'Teammate' }).click();
    await page.getByLabel('Username or Email').fill(teammate.username);
    await page.getByRole('button', { name: 'Add Member' }).click();
    await page.waitForURL(new RegExp(`/team/${organizationId}/edit-member/\\d+$`));
    await page
      .getByText(
        'User is already a member of this organization, we redirected you to the edit page to continue.',
      )
      .waitFor();
    await page.getByRole('heading', { name: 'Edit Organization Member', level: 1 }).waitFor();
    expect(await page.getByLabel('Username or Email').inputValue()).toBe(teammate.username);
    expect(await page.getByLabel('Username or Email').isDisabled()).toBe(true);
    await page.getByLabel(`Credit Limit for ${workspace}`).fill('5000');
    await page.getByRole('checkbox', { name: `Admin of ${workspace}` }).check();
    await adminSession.screenshot('team-edit-member');
    await page.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Member updated');
    await page.waitForURL('**/team?tab=team');
    await page.getByRole('row').filter({ hasText: teammate.username }).getByText('Workspace admin').waitFor();
    await page.getByRole('tab', { name: 'Workspaces' }).click();
    const teammateRow = page
      .getByRole('region', { name: workspace })
      .getByRole('row')
      .filter({ hasText: teammate.username });
    await eventually(async () => expect(await teammateRow.textContent()).toContain('5,000'));
    await teammateRow.getByText('Admin').waitFor();
    await adminSession.screenshot('team-team-tab');
    expectNoConsoleErrors(adminSession.errors);
  });

  it('an invite by email from Add > Teammate keeps the workspace it grants, in the list and after sign-up', async () => {
    const { base, smtp } = suite.server;
    const admin = await createVerifiedUser(base, smtp, 'lead');
    const session = await suite.open();
    const { page } = session;
    const carol = `${uniqueName('carol')}@example.com`;
    const api = await apiAs(base, admin);
    const organization = await api.call('POST', '/api/v2/users/organizations/create', {
      name: teamName('Day '),
    });
    const workspace = teamName('day-');
    await api.call('POST', '/api/v2/users/workspaces/', {
      name: teamName('other-'),
      organization_id: organization.id,
    });
    await api.call('POST', '/api/v2/users/workspaces/', {
      name: workspace,
      organization_id: organization.id,
    });

    await page.goto('/team');
    await signIn(page, admin, { firstTime: true });
    await pickOrganization(page, organization.name);
    const menu = await openAddMenu(page);
    await menu.getByRole('menuitem', { name: 'Teammate' }).click();
    await page.getByRole('heading', { name: 'Add Member', level: 1 }).waitFor();
    const access = page.getByRole('checkbox', { name: `Access to ${workspace}` });
    if (!(await access.isChecked())) await access.check();
    await page.getByLabel('Username or Email').fill(carol);
    await page.getByRole('button', { name: 'Add Member' }).click();
    await page.waitForURL('**/team?tab=team');
    const inviteRow = page.getByRole('row').filter({ hasText: carol });
    await inviteRow.getByRole('button', { name: `Workspaces: ${workspace}` }).waitFor();
    expect(await inviteRow.getByText('None', { exact: true }).count()).toBe(0);

    // Carol signs up from the mailed link: the workspace is hers too.
    const mail = await smtp.waitFor(carol, (m) => m.text.includes('/signup?invite='), 30_000);
    const carolSession = await suite.open();
    const carolPage = carolSession.page;
    const carolUser = { username: uniqueName('carol'), password: PASSWORD };
    await carolPage.goto(linkIn(mail, /http:\/\/\S+\/signup\?invite=\S+/));
    await carolPage.getByLabel('Full name').fill('Carol Shaw');
    await carolPage.getByLabel('Username').fill(carolUser.username);
    await carolPage.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await carolPage.getByLabel('Confirm password').fill(PASSWORD);
    await carolPage.getByRole('button', { name: 'Create Account' }).click();
    await carolPage.waitForURL('**/login**');
    const carolApi = await apiAs(base, carolUser);
    const memberships: Array<{ account: { slug: string } }> = await carolApi.call(
      'GET',
      '/api/v2/user/me/memberships',
    );
    expect(memberships.map((m) => m.account.slug)).toContain(workspace);
    expectNoConsoleErrors(session.errors);
  });

  it("an invitee who signs up from the link in the inviter's own browser signs in as herself, with the invited workspace", async () => {
    // Issue 37 item 1 as the reporter walked it: one browser. The admin invites carol@ from Add >
    // Teammate, then opens the mailed link right there to sign Carol up. Carol's account got the
    // workspace, but the console went on in the admin's session: "Carol" saw one workspace, the
    // admin's own.
    const { base, smtp } = suite.server;
    const admin = await createVerifiedUser(base, smtp, 'walker');
    const session = await suite.open();
    const { page } = session;
    const sent: unknown[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/v2/users/organizations/add-membership'))
        sent.push(request.postDataJSON());
    });
    const carol = `${uniqueName('carol')}@example.com`;
    const workspace = admin.username;

    await page.goto('/team');
    await signIn(page, admin, { firstTime: true });
    const menu = await openAddMenu(page);
    await menu.getByRole('menuitem', { name: 'Teammate' }).click();
    await page.getByRole('heading', { name: 'Add Member', level: 1 }).waitFor();
    expect(await page.getByRole('checkbox', { name: `Access to ${workspace}` }).isChecked()).toBe(true);
    await page.getByLabel('Username or Email').fill(carol);
    await page.getByRole('button', { name: 'Add Member' }).click();
    await page.waitForURL('**/team?tab=team');
    expect(sent).toEqual([
      expect.objectContaining({
        email_or_username: carol,
        workspaces: [expect.objectContaining({ is_admin: false })],
      }),
    ]);
    const inviteRow = page.getByRole('row').filter({ hasText: carol });
    await inviteRow.getByRole('button', { name: `Workspaces: ${workspace}` }).waitFor();

    // The admin, still signed in, opens the invitation to sign Carol up in this same browser.
    const adminKey = await storedToken(page);
    const mail = await smtp.waitFor(carol, (m) => m.text.includes('/signup?invite='), 30_000);
    await page.goto(linkIn(mail, /http:\/\/\S+\/signup\?invite=\S+/));
    await page
      .getByRole('status')
      .filter({ hasText: `You are signed in as ${admin.username} in this browser.` })
      .waitFor();
    await session.screenshot('team-signup-invited-signed-in');
    const carolUser = { username: uniqueName('carol'), password: PASSWORD };
    await page.getByLabel('Full name').fill('Carol Shaw');
    await page.getByLabel('Username').fill(carolUser.username);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create Account' }).click();
    // Not the admin's console: the sign-in page, where Carol signs in as herself.
    await page.waitForURL('**/login**');
    await signIn(page, carolUser, { firstTime: true });
    await page.getByRole('button', { name: new RegExp(`${carol}.*account menu`) }).waitFor();
    await page.goto('/clusters');
    // The admin's personal organization and its workspace share the name: pick the workspace.
    await pickScopeOf(page, workspace, { name: `${workspace} ${workspace}`, exact: true });
    const carolApi = await apiAs(base, carolUser);
    const memberships: Array<{ account: { slug: string } }> = await carolApi.call(
      'GET',
      '/api/v2/user/me/memberships',
    );
    expect(memberships.map((m) => m.account.slug).sort()).toEqual([carolUser.username, workspace].sort());
    // The admin's session in this browser ended with it.
    const me = await fetch(`${base}/api/v2/user/me`, { headers: { authorization: `Token ${adminKey}` } });
    expect(me.status).toBe(401);
    expectNoConsoleErrors(session.errors);
  });

  it("a signed-in user who opens an invitation's sign-in link joins as themselves, or signs out first", async () => {
    // The invitation's sign-in link used to send a signed-in reader straight to the console,
    // leaving the invitation pending until their next sign-in.
    const { base, smtp } = suite.server;
    const admin = await createVerifiedUser(base, smtp, 'host');
    const dave = await createVerifiedUser(base, smtp, 'dave');
    const api = await apiAs(base, admin);
    const organization = await api.call('POST', '/api/v2/users/organizations/create', {
      name: teamName('Lab '),
    });
    const workspace = await api.call('POST', '/api/v2/users/workspaces/', {
      name: teamName('lab-'),
      organization_id: organization.id,
    });
    // Invited at a work address his account does not carry.
    const address = `${uniqueName('dave-work')}@example.com`;
    await api.call('POST', '/api/v2/users/organizations/add-membership', {
      email_or_username: address,
      organization_id: organization.id,
      workspaces: [{ workspace_id: workspace.id }],
    });
    const mail = await smtp.waitFor(address, (m) => m.text.includes('/login?open=true&invite='), 30_000);
    const link = linkIn(mail, /http:\/\/\S+\/login\?open=true&invite=\S+/);

    const session = await suite.open();
    const { page } = session;
    await page.goto('/clusters');
    await signIn(page, dave, { firstTime: true });
    await page.goto(link);
    await page.getByRole('heading', { name: 'Join your team' }).waitFor();
    await page.getByText(`invited ${address} to join ${organization.name} (${workspace.name})`).waitFor();
    await session.screenshot('invite-accept-signed-in');
    await page.getByRole('button', { name: `Accept as ${dave.username}` }).click();
    await page.waitForURL('**/team**');
    const memberships: Array<{ account: { slug: string } }> = await (await apiAs(base, dave)).call(
      'GET',
      '/api/v2/user/me/memberships',
    );
    expect(memberships.map((m) => m.account.slug)).toContain(workspace.slug);
    // Accepted: the link is spent, and says so with a way on.
    await page.goto(link);
    await page.getByText('This invitation link is no longer valid').waitFor();
    await page.getByRole('link', { name: 'Go to the console' }).waitFor();

    // Someone else's choice: sign out, and the same page is the sign-in form, the invitation kept.
    const other = await createVerifiedUser(base, smtp, 'erin');
    const second = `${uniqueName('erin-work')}@example.com`;
    await api.call('POST', '/api/v2/users/organizations/add-membership', {
      email_or_username: second,
      organization_id: organization.id,
      workspaces: [],
    });
    const secondMail = await smtp.waitFor(second, (m) => m.text.includes('/login?open=true&invite='), 30_000);
    await page.goto(linkIn(secondMail, /http:\/\/\S+\/login\?open=true&invite=\S+/));
    await page.getByRole('button', { name: 'Sign out and sign in as someone else' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(page.url()).toContain('invite=');
    await signIn(page, other, { firstTime: true });
    const erinOrganizations: Array<{ organization_id: number }> = await (await apiAs(base, other)).call(
      'GET',
      '/api/v2/users/user/organization/memberships',
    );
    expect(erinOrganizations.map((m) => m.organization_id)).toContain(organization.id);
    expectNoConsoleErrors(session.errors);
  });

  it('shows the Member Limit Reached and Workspace Limit Reached dialogs when the plan is full', async () => {
    const base = suite.server.base;
    const admin = await createVerifiedUser(base, suite.server.smtp, 'full');
    const api = await apiAs(base, admin);
    const organization = await api.call('POST', '/api/v2/users/organizations/create', {
      name: teamName('Full '),
    });
    const workspace = teamName('full-');
    await api.call('POST', '/api/v2/users/workspaces/', {
      name: workspace,
      organization_id: organization.id,
    });
    const pending = `${uniqueName('pending')}@example.com`;
    await api.call('POST', '/api/v2/users/organizations/add-membership', {
      email_or_username: pending,
      organization_id: organization.id,
      workspaces: [],
    });
    // One member and one pending invite: a plan of 2 seats and 1 workspace is full.
    await suite.server.withDatabase(async (database) => {
      await database.query(
        'update programs set member_limit = 2, workspace_limit = 1 where organization_id = $1 and ended is null',
        [organization.id],
      );
    });

    const session = await suite.open();
    const { page } = session;
    await page.goto('/team');
    await signIn(page, admin, { firstTime: true });
    await pickOrganization(page, organization.name);
    await page.getByTestId('plan-usage').getByText('2 / 2').waitFor();

    let menu = await openAddMenu(page);
    await menu.getByRole('menuitem', { name: 'Teammate' }).click();
    let dialog = page.getByRole('dialog', { name: 'Member Limit Reached' });
    await dialog
      .getByText('Your organization is using 2 of 2 allowed seats. Upgrade your plan to add more members.')
      .waitFor();
    await dialog.getByRole('link', { name: 'See plans' }).waitFor();
    await session.screenshot('team-member-limit');
    await dialog.getByRole('button', { name: 'Not now' }).click();
    await dialog.waitFor({ state: 'detached' });
    // Trying anyway: the server refuses, and the dialog comes back.
    await page.getByLabel('Username or Email').fill(`${uniqueName('late')}@example.com`);
    await page.getByRole('button', { name: 'Add Member' }).click();
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Not now' }).click();

    // Deleting the pending invite frees a seat: no dialog any more.
    await page.getByRole('link', { name: 'Cancel' }).click();
    await page.waitForURL('**/team?tab=team');
    await page.getByRole('button', { name: `Remove ${pending}` }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete invitation?' });
    await confirm.getByText(`The invitation to ${pending} will no longer be accepted.`).waitFor();
    await session.screenshot('team-remove-invite');
    await confirm.getByRole('button', { name: 'Delete invitation' }).click();
    await toast(page, `Invite to ${pending} deleted`);
    await page.getByTestId('plan-usage').getByText('1 / 2').waitFor();
    // The last admin cannot leave: the server's reason shows in an error toast.
    const adminName = `Test ${admin.username}`;
    await page.getByRole('button', { name: `Remove ${adminName}` }).click();
    await page
      .getByRole('alertdialog', { name: `Remove ${adminName}?` })
      .getByRole('button', { name: 'Remove', exact: true })
      .click();
    await toast(page, 'An organization must have at least one admin.');
    await page.getByRole('row').filter({ hasText: admin.username }).getByText('Organization admin').waitFor();
    menu = await openAddMenu(page);
    await menu.getByRole('menuitem', { name: 'Teammate' }).click();
    await page.getByRole('heading', { name: 'Add Member', level: 1 }).waitFor();
    await page.getByLabel('Username or Email').waitFor();
    expect(await page.getByRole('dialog', { name: 'Member Limit Reached' }).count()).toBe(0);
    // On a phone the form fits the screen; its workspace table scrolls sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await session.screenshot('team-phone-add-member');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1440, height: 900 });

    await page.goto('/team');
    menu = await openAddMenu(page);
    await menu.getByRole('menuitem', { name: 'Workspace' }).click();
    dialog = page.getByRole('dialog', { name: 'Workspace Limit Reached' });
    await dialog
      .getByText(
        "Your organization has reached your plan's workspace limit. See plans to enable adding more workspaces.",
      )
      .waitFor();
    await session.screenshot('team-workspace-limit');
    await dialog.getByRole('button', { name: 'Not now' }).click();
    await page.getByLabel('Workspace name').fill(teamName('more-'));
    await page.getByRole('button', { name: 'Create Workspace' }).click();
    await dialog.waitFor();
    expectNoConsoleErrors(session.errors);
  });

  it('a member without admin rights sees why they cannot add, and no Edit or Remove', async () => {
    const base = suite.server.base;
    const [admin, member] = await Promise.all([
      createVerifiedUser(base, suite.server.smtp, 'boss'),
      createVerifiedUser(base, suite.server.smtp, 'member'),
    ]);
    const api = await apiAs(base, admin);
    const organization = await api.call('POST', '/api/v2/users/organizations/create', {
      name: teamName('Crew '),
    });
    const workspace = await api.call('POST', '/api/v2/users/workspaces/', {
      name: teamName('crew-'),
      organization_id: organization.id,
    });
    await api.call('POST', '/api/v2/users/organizations/add-membership', {
      email_or_username: member.username,
      organization_id: organization.id,
      workspaces: [{ workspace_id: workspace.id }],
    });

    const session = await suite.open();
    const { page } = session;
    await page.goto('/team');
    await signIn(page, member, { firstTime: true });
    await pickOrganization(page, organization.name);
    const card = page.getByRole('region', { name: workspace.name });
    await card.getByRole('row').filter({ hasText: admin.username }).waitFor();
    expect(await card.getByRole('button', { name: 'Save' }).count()).toBe(0);
    expect(await card.getByLabel('Workspace credit limit').isDisabled()).toBe(true);
    expect(await tooltipOf(page, card.getByLabel('Workspace credit limit'))).toBe(
      `You are not an admin of ${workspace.name}`,
    );
    expect(await card.getByRole('link', { name: /^Edit / }).count()).toBe(0);

    const menu = await openAddMenu(page);
    expect(await tooltipOf(page, menu.getByRole('menuitem', { name: 'Teammate' }))).toBe(
      'You must be an organization or workspace admin to add team mates.',
    );
    await session.screenshot('team-non-admin-menu');
    expect(await tooltipOf(page, menu.getByRole('menuitem', { name: 'Workspace' }))).toBe(
      'You must be an organization admin to add workspaces.',
    );
    // Escape closes the open tooltip first, then the menu.
    await page.keyboard.press('Escape');
    await page.locator('[role=tooltip]').first().waitFor({ state: 'detached' });
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });

    await page.getByRole('tab', { name: 'Team' }).click();
    await page.waitForURL('**/team?tab=team');
    await page.getByRole('row').filter({ hasText: member.username }).waitFor();
    await page.getByRole('row').filter({ hasText: admin.username }).getByText('Organization admin').waitFor();
    expect(await page.getByRole('link', { name: /^Edit / }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Remove / }).count()).toBe(0);
    await page.getByRole('link', { name: 'permissions guide' }).waitFor();
    await session.screenshot('team-non-admin');

    // The Add Member page itself says so before anything is typed, instead of refusing on submit.
    await page.goto(`/team/${organization.id}/add-member`);
    await page.getByText('You must be an organization or workspace admin to add team mates.').waitFor();
    expect(await page.getByRole('button', { name: 'Add Member' }).count()).toBe(0);
    expect(await page.getByLabel('Username or Email').count()).toBe(0);
    await session.screenshot('team-non-admin-add-member');
    await page.setViewportSize({ width: 390, height: 844 });
    await session.screenshot('team-non-admin-add-member-phone');
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByRole('link', { name: 'Back to Team' }).click();
    await page.waitForURL('**/team?tab=team');

    // A phone: the same page in one column.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('tab', { name: 'Workspaces' }).click();
    await card.waitFor();
    const pageWidth = () => page.evaluate(() => document.documentElement.scrollWidth);
    await session.screenshot('team-phone');
    expect(await pageWidth()).toBeLessThanOrEqual(390);
    await page.getByRole('tab', { name: 'Team' }).click();
    await page.getByRole('row').filter({ hasText: member.username }).waitFor();
    await session.screenshot('team-phone-team-tab');
    expect(await pageWidth()).toBeLessThanOrEqual(390);
    expectNoConsoleErrors(session.errors);
  });
});
