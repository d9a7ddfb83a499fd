import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { WorkspaceMembership } from '@/data/user/workspace-memberships-query';
import { ClustersPage } from '@/features/clusters/dashboard/ClustersPage';
import { pickScope } from '@/lib/scopes';
import { stubApi } from '@/test/api-stub';
import { jobSummary } from '@/test/jobs-fixtures';
import { renderSignedIn } from '@/test/signed-in';

const membership = {
  id: 1,
  account: {
    id: 7,
    slug: 'acme',
    name: 'Acme',
    organization: { id: 3, name: 'Acme Inc', isPersonal: false },
  },
  isAdmin: false,
  isDefaultAccount: true,
} as unknown as WorkspaceMembership;

const acmeScope = {
  type: 'account',
  id: 7,
  name: 'Acme',
  slug: 'acme',
  email: null,
  workspace_names: [],
  organization_id: 3,
};

function openDashboard(url: string) {
  const api = stubApi({
    'GET /api/v2/users/user/valid-scopes': [acmeScope],
    'GET /api/v2/clusters/paginate': { items: [], count: 0 },
    'GET /api/v2/jobs/': { items: [jobSummary(12)], count: 1 },
  });
  const view = renderSignedIn(<ClustersPage />, { url, signedIn: { workspaceMemberships: [membership] } });
  return { ...view, api };
}

describe("The Dashboard's Jobs tab", () => {
  beforeEach(() => pickScope(null));
  afterEach(() => vi.restoreAllMocks());

  it("lists the workspace's batch jobs, linking each to its page and its cluster in the workspace", async () => {
    const { api } = openDashboard('/clusters?tab=jobs');
    expect(await screen.findByRole('link', { name: 'Batch job 12' })).toHaveAttribute(
      'href',
      '/batch/jobs/12',
    );
    expect(screen.getByRole('link', { name: 'job-12' })).toHaveAttribute('href', '/clusters/62?account=acme');
    expect(screen.getByText('Batch jobs in Acme')).toBeInTheDocument();
    expect(api.callsTo('GET', '/api/v2/jobs/')[0]!.query.get('workspace')).toBe('acme');
    // The clusters tab's list is not asked for.
    expect(api.callsTo('GET', '/api/v2/clusters/paginate')).toHaveLength(0);
  });

  it('switches between clusters and jobs, each tab opening on its own defaults', async () => {
    const view = openDashboard('/clusters?page=3&account=acme');
    await screen.findByText('No clusters on this page');
    fireEvent.mouseDown(screen.getByRole('tab', { name: 'Jobs' }));
    await waitFor(() => expect(view.router.state.location.search).toBe('?account=acme&tab=jobs'));
    expect(await screen.findByRole('link', { name: 'Batch job 12' })).toBeInTheDocument();
    fireEvent.mouseDown(screen.getByRole('tab', { name: 'Clusters' }));
    await waitFor(() => expect(view.router.state.location.search).toBe('?account=acme'));
  });
});
