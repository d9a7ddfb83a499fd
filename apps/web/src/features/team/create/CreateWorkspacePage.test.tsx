import { fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ORG_ID, organization, teamRoutes, workspace } from '@/features/team/test-fixtures';
import { openTeamPage as open } from '@/features/team/test-pages';
import { pickScope } from '@/lib/scopes';
import { TEAM_MESSAGES } from '@/lib/team/messages';
import { reply, stubApi } from '@/test/api-stub';

const nameField = (label: string) => screen.findByLabelText(label) as Promise<HTMLInputElement>;

describe('Create Workspace', () => {
  beforeEach(() => pickScope(null));
  afterEach(() => vi.restoreAllMocks());

  it('checks the name with the spec messages', async () => {
    stubApi(teamRoutes());
    open(`/team/${ORG_ID}/create-workspace`);
    const name = await nameField('Workspace name');
    expect(screen.getByText('Must be unique, 4 to 34 characters.')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Create Workspace' }));
    expect(await screen.findByText('Workspace name is required')).toBeInTheDocument();
    fireEvent.change(name, { target: { value: 'abc' } });
    expect(await screen.findByText('Must be at least 4 characters')).toBeInTheDocument();
    fireEvent.change(name, { target: { value: 'x'.repeat(35) } });
    expect(await screen.findByText('Must be less than 34 characters')).toBeInTheDocument();
  });

  it('says names must be globally unique, then creates and returns with the banner flag', async () => {
    let taken = true;
    const api = stubApi({
      ...teamRoutes(),
      'POST /api/v2/users/workspaces/': () =>
        taken
          ? {
              status: 400,
              body: {
                detail: 'Workspace names must be globally unique',
                code: 'REQUIRE_UNIQUE_ACCOUNT_NAMES',
              },
            }
          : { status: 201, body: workspace(15, 'forecasting') },
    });
    const { router } = open(`/team/${ORG_ID}/create-workspace`);
    const name = await nameField('Workspace name');
    fireEvent.change(name, { target: { value: 'analytics' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Workspace' }));
    expect(await screen.findByText(TEAM_MESSAGES.uniqueWorkspaceName)).toBeInTheDocument();

    taken = false;
    fireEvent.change(name, { target: { value: 'forecasting' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Workspace' }));
    await screen.findByRole('heading', { name: `Team page, scope organization:${ORG_ID}` });
    expect(router.state.location.search).toBe('?showDefaultWorkspaceBanner=true');
    expect(await screen.findByText('Workspace created')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/v2/users/workspaces/').at(-1)?.body).toEqual({
      name: 'forecasting',
      organization_id: ORG_ID,
    });
  });

  it('opens Workspace Limit Reached by itself when the plan allows no more', async () => {
    stubApi(teamRoutes({ org: organization({ workspace_limit: 1, workspace_count: 1 }) }));
    open(`/team/${ORG_ID}/create-workspace`);
    const dialog = await screen.findByRole('dialog', { name: 'Workspace Limit Reached' });
    expect(dialog).toHaveTextContent(TEAM_MESSAGES.workspaceLimit);
  });

  it('shows other failures as Error: {message}', async () => {
    stubApi({
      ...teamRoutes(),
      'POST /api/v2/users/workspaces/': reply(403, {
        detail: 'You must be an organization admin to add workspaces.',
      }),
    });
    open(`/team/${ORG_ID}/create-workspace`);
    fireEvent.change(await nameField('Workspace name'), { target: { value: 'forecasting' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Workspace' }));
    expect(
      await screen.findByText('Error: You must be an organization admin to add workspaces.'),
    ).toBeInTheDocument();
  });
});
