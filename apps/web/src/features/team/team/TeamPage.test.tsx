import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TeamPage } from '@/features/team/team/TeamPage';
import {
  invite,
  ME,
  member,
  ORG_ID,
  organization,
  orgScope,
  teamRoutes,
  workspace,
} from '@/features/team/test-fixtures';
import { camelize } from '@/lib/api/camelize';
import { pickScope, type Scope } from '@/lib/scopes';
import { reply, stubApi } from '@/test/api-stub';
import { renderSignedIn, testUser } from '@/test/signed-in';

const rowWith = (text: string) =>
  screen.getAllByRole('row').find((row) => within(row).queryAllByText(text).length > 0) as HTMLElement;

const pickOrganization = () => pickScope(camelize(orgScope) as Scope);

async function hoverReason(element: HTMLElement, reason: string) {
  const wrapper = element.closest('[data-disabled-reason]') as HTMLElement;
  expect(wrapper).toHaveAttribute('data-disabled-reason', reason);
  fireEvent.focus(wrapper);
  expect((await screen.findAllByText(reason)).length).toBeGreaterThan(0);
}

describe('TeamPage', () => {
  beforeEach(() => pickScope(null));
  afterEach(() => vi.restoreAllMocks());

  it('asks for an organization when the scope has none', async () => {
    stubApi(teamRoutes());
    renderSignedIn(<TeamPage />, { url: '/team' });
    expect(await screen.findByText('Select an organization to view team information.')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Organization' })).toHaveTextContent(
      'Search for an organization',
    );
  });

  it('picks an organization from the search picker', async () => {
    stubApi(teamRoutes());
    renderSignedIn(<TeamPage />, { url: '/team' });
    fireEvent.click(await screen.findByRole('combobox', { name: 'Organization' }));
    fireEvent.click(await screen.findByRole('option', { name: /Acme/ }));
    expect(await screen.findByRole('region', { name: 'analytics' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Organization: Acme' })).toBeInTheDocument();
  });

  it('shows an admin every workspace card with its members, invites and credit limit', async () => {
    pickOrganization();
    stubApi(teamRoutes());
    renderSignedIn(<TeamPage />, { url: '/team' });
    const card = await screen.findByRole('region', { name: 'analytics' });
    expect(within(card).getByText('2 members · 1 pending invite')).toBeInTheDocument();
    expect(within(card).getByText('Invitation not yet accepted')).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'Edit newcomer@example.com' })).toHaveAttribute(
      'href',
      `/team/${ORG_ID}/edit-invite/300`,
    );
    expect(within(card).getByRole('link', { name: 'Edit bob' })).toHaveAttribute(
      'href',
      `/team/${ORG_ID}/edit-member/101`,
    );
    expect(within(card).getByLabelText('Workspace credit limit')).toBeEnabled();
  });

  it('lists members and invites on the Team tab with badges, avatars and actions', async () => {
    pickOrganization();
    const many = [11, 12, 13, 14, 15, 16];
    stubApi(
      teamRoutes({
        workspaces: many.map((id) => workspace(id, `ws-${id}`, [[ME, 'ada', true]])),
        members: [member(100, ME, 'ada', 'admin', many), member(101, 2, 'bob', 'member', [11])],
        invites: [invite(300, 'newcomer@example.com', [12], { expired: true })],
      }),
    );
    renderSignedIn(<TeamPage />, { url: '/team?tab=team' });
    await screen.findByText('newcomer@example.com');
    const ada = rowWith('ada');
    expect(within(ada).getByText('Organization admin')).toBeInTheDocument();
    // At most four avatars, then the rest as +N.
    expect(within(ada).getByText('+2')).toBeInTheDocument();
    expect(
      within(ada).getByRole('button', { name: 'Workspaces: ws-11, ws-12, ws-13, ws-14, ws-15, ws-16' }),
    ).toBeInTheDocument();

    const pending = rowWith('newcomer@example.com');
    expect(within(pending).getByText('Invitation not yet accepted')).toBeInTheDocument();
    expect(within(pending).getByText('Expired')).toBeInTheDocument();
    expect(
      within(pending).getByRole('button', { name: 'Resend invite to newcomer@example.com' }),
    ).toBeInTheDocument();
    // The guide is a section of this server's own documentation (no docs site configured).
    const guide = await screen.findByRole('link', { name: /permissions guide/ });
    expect(guide).toHaveAttribute('target', '_blank');
    expect(guide).toHaveAttribute('href', '/docs/teams#roles-and-permissions');
  });

  it('resends an invite with a toast-worthy success, and removes a member after confirming', async () => {
    pickOrganization();
    const api = stubApi({
      ...teamRoutes(),
      'POST /api/v2/users/invites/organization-invite-resend/300': invite(300, 'newcomer@example.com', [11]),
      'DELETE /api/v2/users/organizations/remove-membership/101': reply(204),
    });
    renderSignedIn(<TeamPage />, { url: '/team?tab=team' });
    fireEvent.click(await screen.findByRole('button', { name: 'Resend invite to newcomer@example.com' }));
    await waitFor(() =>
      expect(api.callsTo('POST', '/api/v2/users/invites/organization-invite-resend/300')).toHaveLength(1),
    );

    fireEvent.click(screen.getByRole('button', { name: 'Remove bob' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('bob will lose access to Acme and all of its workspaces.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() =>
      expect(api.callsTo('DELETE', '/api/v2/users/organizations/remove-membership/101')).toHaveLength(1),
    );
  });

  it('shows a member without admin rights the reasons, and no Edit or Remove', async () => {
    pickOrganization();
    stubApi(
      teamRoutes({
        org: organization({
          member_set: [
            {
              id: 101,
              user: {
                id: ME,
                username: 'ada',
                full_name: '',
                preferred_name: '',
                profile: { avatar_url: null },
              },
              role: 'member',
            },
          ],
        }),
        workspaces: [workspace(11, 'analytics', [[ME, 'ada', false]])],
        members: [member(100, 5, 'owner', 'admin', [11], true), member(101, ME, 'ada', 'member', [11])],
      }),
    );
    renderSignedIn(<TeamPage />, { url: '/team' });
    const card = await screen.findByRole('region', { name: 'analytics' });
    expect(within(card).queryByRole('link', { name: /Edit/ })).not.toBeInTheDocument();
    const field = within(card).getByLabelText('Workspace credit limit');
    expect(field).toBeDisabled();
    await hoverReason(field, 'You are not an admin of analytics');

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Add' }));
    const teammate = await screen.findByRole('menuitem', { name: 'Teammate' });
    expect(teammate).toHaveAttribute('data-disabled');
    await hoverReason(teammate, 'You must be an organization or workspace admin to add team mates.');
    const workspaceItem = screen.getByRole('menuitem', { name: 'Workspace' });
    await hoverReason(workspaceItem, 'You must be an organization admin to add workspaces.');
    expect(screen.getByRole('menuitem', { name: 'Organization' })).not.toHaveAttribute('data-disabled');
    // The first Escape closes the tooltip, the next one the menu.
    await user.keyboard('{Escape}');
    if (screen.queryByRole('menu')) await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());

    await user.click(await screen.findByRole('tab', { name: 'Team' }));
    await screen.findByText('owner');
    expect(screen.queryByRole('link', { name: /^Edit/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Remove/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Resend invite/ })).not.toBeInTheDocument();
  });

  it('says there are no workspaces, and why no teammate can be added yet', async () => {
    pickOrganization();
    stubApi(teamRoutes({ workspaces: [], members: [member(100, ME, 'ada', 'admin', [])], invites: [] }));
    renderSignedIn(<TeamPage />, { url: '/team' });
    expect(await screen.findByText('No workspaces have been created.')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Add' }));
    await hoverReason(
      await screen.findByRole('menuitem', { name: 'Teammate' }),
      'Add a workspace to get started.',
    );
    expect(screen.getByRole('menuitem', { name: 'Workspace' })).not.toHaveAttribute('data-disabled');
  });

  it('shows the default-workspace banner once and drops the parameter', async () => {
    pickOrganization();
    stubApi(teamRoutes());
    const { router } = renderSignedIn(<TeamPage />, {
      url: '/team?showDefaultWorkspaceBanner=true',
      signedIn: {
        user: testUser({
          defaultAccount: {
            id: 3,
            slug: 'ada-personal',
            name: 'ada-personal',
            avatarUrl: null,
            active: true,
            canUseCumulusHosted: true,
            activeBackend: 'in_process',
            setupComplete: false,
            configuredCustomerHosted: false,
            organization: { id: 2, name: 'ada', isPersonal: true },
          },
        }),
      },
    });
    expect(await screen.findByText(/Your default workspace is still ada-personal/)).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(screen.getByText(/You can change it in your profile/)).toBeInTheDocument();
  });

  it('checks the workspace credit limit and shows the server message when saving fails', async () => {
    pickOrganization();
    const api = stubApi({
      ...teamRoutes(),
      'PATCH /api/v2/users/workspaces/details/11': reply(400, {
        credit_limit: ['Ensure this value is smaller.'],
      }),
    });
    renderSignedIn(<TeamPage />, { url: '/team' });
    const card = await screen.findByRole('region', { name: 'analytics' });
    const field = within(card).getByLabelText('Workspace credit limit');
    fireEvent.change(field, { target: { value: '-1' } });
    expect(
      await within(card).findByText('Credit limit must be greater than or equal to 0'),
    ).toBeInTheDocument();
    fireEvent.change(field, { target: { value: '5' } });
    fireEvent.change(field, { target: { value: '' } });
    expect(await within(card).findByText('A credit limit is required')).toBeInTheDocument();
    fireEvent.change(field, { target: { value: '2500' } });
    fireEvent.click(within(card).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(api.callsTo('PATCH', '/api/v2/users/workspaces/details/11')).toEqual([
        expect.objectContaining({ body: { credit_limit: 2500 } }),
      ]),
    );
    expect(await within(card).findByText('Ensure this value is smaller.')).toBeInTheDocument();
  });
});
