import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { invite, ORG_ID, teamRoutes, twoWorkspaces as two } from '@/features/team/test-fixtures';
import { openTeamPage as open } from '@/features/team/test-pages';
import { pickScope } from '@/lib/scopes';
import { reply, stubApi } from '@/test/api-stub';

const field = (name: string) => screen.getByLabelText(name) as HTMLInputElement;

describe('Edit invite', () => {
  beforeEach(() => pickScope(null));
  afterEach(() => vi.restoreAllMocks());

  it('edits an invite and shows a failure as Error: {message}', async () => {
    stubApi({
      ...teamRoutes({ workspaces: two }),
      'GET /api/v2/users/invites/organization-invite/300': invite(300, 'newcomer@example.com', [11]),
      'PATCH /api/v2/users/invites/organization-invite/300': reply(400, {
        workspaces: ['Workspace 99 is not part of this organization.'],
      }),
    });
    open(`/team/${ORG_ID}/edit-invite/300`);
    await waitFor(() => expect(field('Username or Email').value).toBe('newcomer@example.com'));
    expect(screen.getByRole('checkbox', { name: 'Access to analytics' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Access to research' })).not.toBeChecked();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText('Error: Workspace 99 is not part of this organization.'),
    ).toBeInTheDocument();
  });
});
