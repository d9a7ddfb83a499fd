import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ME,
  member,
  ORG_ID,
  organization,
  teamRoutes,
  twoWorkspaces as two,
} from '@/features/team/test-fixtures';
import { openTeamPage as open } from '@/features/team/test-pages';
import { pickScope } from '@/lib/scopes';
import { stubApi } from '@/test/api-stub';

const field = (name: string) => screen.getByLabelText(name) as HTMLInputElement;

describe('Edit member', () => {
  beforeEach(() => pickScope(null));
  afterEach(() => vi.restoreAllMocks());

  it('edits a member: username fixed, rows the user does not administer read-only', async () => {
    const workspaceAdmin = organization({
      member_set: [
        {
          id: 100,
          user: { id: ME, username: 'ada', full_name: '', preferred_name: '', profile: { avatar_url: null } },
          role: 'member',
        },
      ],
    });
    const api = stubApi({
      ...teamRoutes({ org: workspaceAdmin, workspaces: two }),
      'GET /api/v2/users/organizations/membership/101': member(101, 2, 'bob', 'member', [11, 12]),
      'PATCH /api/v2/users/organizations/update-membership/101': member(101, 2, 'bob', 'member', [11, 12]),
    });
    open(`/team/${ORG_ID}/edit-member/101`);
    await waitFor(() => expect(field('Username or Email').value).toBe('bob'));
    expect(field('Username or Email')).toBeDisabled();
    expect(screen.getByRole('checkbox', { name: 'Organization Admin' })).toBeDisabled();
    expect(field('Core Limit for analytics')).toBeEnabled();
    expect(field('Core Limit for research')).toBeDisabled();
    expect(
      screen.getByRole('checkbox', { name: 'Access to research' }).closest('[data-disabled-reason]'),
    ).toHaveAttribute('data-disabled-reason', 'You are not an admin of research');

    fireEvent.change(field('Credit Limit for analytics'), { target: { value: '5000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByRole('heading', { name: /Team page/ });
    expect(api.callsTo('PATCH', '/api/v2/users/organizations/update-membership/101')[0]?.body).toEqual({
      role: 'member',
      workspaces: [
        { id: 1010, workspace_id: 11, is_admin: false, core_limit: 1000, credit_limit: 5000 },
        { id: 1011, workspace_id: 12, is_admin: false, core_limit: 1000, credit_limit: 100000 },
      ],
    });
  });
});
