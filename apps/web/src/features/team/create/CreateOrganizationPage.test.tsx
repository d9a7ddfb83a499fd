import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { organization, orgScope, teamRoutes } from '@/features/team/test-fixtures';
import { openTeamPage as open } from '@/features/team/test-pages';
import { paths } from '@/lib/paths';
import { pickedScope, pickScope } from '@/lib/scopes';
import { reply, stubApi } from '@/test/api-stub';

const nameField = (label: string) => screen.findByLabelText(label) as Promise<HTMLInputElement>;

describe('Create Organization', () => {
  beforeEach(() => pickScope(null));
  afterEach(() => vi.restoreAllMocks());

  it('creates it and goes on to its first workspace, leaving the scope where it was', async () => {
    const created = organization({ id: 40, name: 'Globex' });
    stubApi({
      ...teamRoutes(),
      'GET /api/v2/users/user/valid-scopes': [{ ...orgScope, id: 40, name: 'Globex', organization_id: 40 }],
      'POST /api/v2/users/organizations/create': reply(201, created),
    });
    const { router } = open(paths.teamCreateOrganization);
    const name = await nameField('Organization name');
    fireEvent.click(screen.getByRole('button', { name: 'Create Organization' }));
    expect(await screen.findByText('Organization name is required')).toBeInTheDocument();
    fireEvent.change(name, { target: { value: 'Globex' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Organization' }));
    expect(await screen.findByText('Organization created')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/team/40/create-workspace'));
    // Not switched to an organization without a workspace of the user's.
    expect(pickedScope()).toBeNull();
  });
});
