import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  invite,
  member,
  ORG_ID,
  organization,
  teamRoutes,
  twoWorkspaces as two,
} from '@/features/team/test-fixtures';
import { openTeamPage as open } from '@/features/team/test-pages';
import { pickScope } from '@/lib/scopes';
import { TEAM_MESSAGES } from '@/lib/team/messages';
import { reply, stubApi } from '@/test/api-stub';
import { deploymentAnswer } from '@/test/deployment';

const field = (name: string) => screen.getByLabelText(name) as HTMLInputElement;

describe('Add member', () => {
  beforeEach(() => pickScope(null));
  afterEach(() => vi.restoreAllMocks());

  it('pre-selects a sole workspace with the default limits and adds the member', async () => {
    const api = stubApi({
      ...teamRoutes(),
      'POST /api/v2/users/organizations/add-membership': reply(201, {
        membership: null,
        invite: invite(301, 'grace@example.com', [11]),
      }),
    });
    const { router } = open(`/team/${ORG_ID}/add-member`);
    await screen.findByLabelText('Username or Email');
    expect(screen.getByRole('checkbox', { name: 'Access to analytics' })).toBeChecked();
    expect(field('Core Limit for analytics').value).toBe('1000');
    expect(field('Credit Limit for analytics').value).toBe('100000');

    fireEvent.click(screen.getByRole('button', { name: 'Add Member' }));
    expect(await screen.findByText('Username or Email is required')).toBeInTheDocument();

    fireEvent.change(field('Username or Email'), { target: { value: 'grace@example.com' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Admin of analytics' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add Member' }));
    await screen.findByRole('heading', { name: `Team page, scope organization:${ORG_ID}` });
    expect(router.state.location.search).toBe('?tab=team');
    expect(api.callsTo('POST', '/api/v2/users/organizations/add-membership')[0]?.body).toEqual({
      email_or_username: 'grace@example.com',
      organization_id: ORG_ID,
      role: 'member',
      workspaces: [{ workspace_id: 11, is_admin: true, core_limit: 1000, credit_limit: 100000 }],
    });
    expect(await screen.findByText('Invitation sent to grace@example.com')).toBeInTheDocument();
  });

  it('says an invitation was printed in the server log when the server sends no mail', async () => {
    stubApi({
      ...teamRoutes(),
      'GET /api/v2/deployment': deploymentAnswer({ mail: 'server-log' }),
      'POST /api/v2/users/organizations/add-membership': reply(201, {
        membership: null,
        invite: invite(301, 'grace@example.com', [11]),
      }),
    });
    open(`/team/${ORG_ID}/add-member`);
    fireEvent.change(await screen.findByLabelText('Username or Email'), {
      target: { value: 'grace@example.com' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Add Member' }));
    expect(await screen.findByText(TEAM_MESSAGES.inviteKept('grace@example.com'))).toHaveTextContent(
      'Invitation to grace@example.com printed in the server log (no mail server is configured)',
    );
  });

  it('selects nothing when there are several workspaces, and checks the limits of the chosen ones', async () => {
    stubApi(teamRoutes({ workspaces: two }));
    open(`/team/${ORG_ID}/add-member`);
    await screen.findByLabelText('Username or Email');
    expect(screen.getByRole('checkbox', { name: 'Access to analytics' })).not.toBeChecked();
    expect(field('Core Limit for research')).toBeDisabled();

    fireEvent.change(field('Username or Email'), { target: { value: 'grace' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Access to research' }));
    fireEvent.change(field('Core Limit for research'), { target: { value: '' } });
    fireEvent.change(field('Credit Limit for research'), { target: { value: '-3' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add Member' }));
    expect(await screen.findByText('Core limit is required')).toBeInTheDocument();
    expect(screen.getByText('Credit limit must be greater than or equal to 0')).toBeInTheDocument();
  });

  it('redirects to the edit page of an existing member (409) with the spec message', async () => {
    stubApi({
      ...teamRoutes(),
      'POST /api/v2/users/organizations/add-membership': reply(409, {
        detail: 'User is already a member of this organization.',
        code: 'ALREADY_MEMBER',
        membership_id: 101,
      }),
      'GET /api/v2/users/organizations/membership/101': member(101, 2, 'bob', 'member', [11]),
    });
    const { router } = open(`/team/${ORG_ID}/add-member`);
    await screen.findByLabelText('Username or Email');
    fireEvent.change(field('Username or Email'), { target: { value: 'bob' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add Member' }));
    await screen.findByRole('heading', { name: 'Edit Organization Member' });
    expect(router.state.location.pathname).toBe(`/team/${ORG_ID}/edit-member/101`);
    expect(screen.getByText(TEAM_MESSAGES.alreadyMember)).toBeInTheDocument();
    await waitFor(() => expect(field('Username or Email').value).toBe('bob'));
  });

  it('carries the access ticked into the edit page of an existing invitation (409), so none of it is lost', async () => {
    stubApi({
      ...teamRoutes({ workspaces: two }),
      'POST /api/v2/users/organizations/add-membership': reply(409, {
        detail: 'This address already has an invitation.',
        code: 'ALREADY_INVITED',
        invite_id: 300,
      }),
      'GET /api/v2/users/invites/organization-invite/300': invite(300, 'carol@example.com', []),
    });
    const { router } = open(`/team/${ORG_ID}/add-member`);
    await screen.findByLabelText('Username or Email');
    fireEvent.change(field('Username or Email'), { target: { value: 'carol@example.com' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Access to research' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add Member' }));
    await screen.findByRole('heading', { name: 'Edit Invite' });
    expect(router.state.location.pathname).toBe(`/team/${ORG_ID}/edit-invite/300`);
    expect(screen.getByText(TEAM_MESSAGES.alreadyInvited)).toBeInTheDocument();
    await waitFor(() => expect(field('Username or Email').value).toBe('carol@example.com'));
    // The invitation granted nothing; what was just ticked is still ticked, ready to save.
    expect(screen.getByRole('checkbox', { name: 'Access to research' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Access to analytics' })).not.toBeChecked();
  });

  it('shows COULD_NOT_FIND_USER on the field and anything else as Error: {message}', async () => {
    const notFound =
      'Could not find a user with the username nobody. Enter their email address to invite them.';
    let answer = reply(400, { detail: notFound, code: 'COULD_NOT_FIND_USER', email_or_username: [notFound] });
    stubApi({
      ...teamRoutes(),
      'POST /api/v2/users/organizations/add-membership': (...args: Parameters<typeof answer>) =>
        answer(...args),
    });
    open(`/team/${ORG_ID}/add-member`);
    await screen.findByLabelText('Username or Email');
    fireEvent.change(field('Username or Email'), { target: { value: 'nobody' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add Member' }));
    expect(await screen.findByText(notFound)).toBeInTheDocument();
    expect(field('Username or Email')).toHaveAttribute('aria-invalid', 'true');

    answer = reply(403, { detail: 'You are not an admin of research', code: 'PERMISSION_DENIED' });
    fireEvent.click(screen.getByRole('button', { name: 'Add Member' }));
    expect(await screen.findByText('Error: You are not an admin of research')).toBeInTheDocument();
  });

  it('opens Member Limit Reached by itself when the seats are used up', async () => {
    stubApi(teamRoutes({ org: organization({ member_limit: 3, member_count: 2, pending_invite_count: 1 }) }));
    open(`/team/${ORG_ID}/add-member`);
    const dialog = await screen.findByRole('dialog', { name: 'Member Limit Reached' });
    expect(dialog).toHaveTextContent(TEAM_MESSAGES.memberLimit(3, 3));
    expect(within(dialog).getByRole('link', { name: 'See plans' })).toHaveAttribute(
      'href',
      `/billing?account=${ORG_ID}`,
    );
  });
});
