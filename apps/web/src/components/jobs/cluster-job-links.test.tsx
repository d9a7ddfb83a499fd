import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { ClusterJobLinks } from '@/components/jobs/cluster-job-links';
import { stubApi } from '@/test/api-stub';
import { renderSignedIn } from '@/test/signed-in';

describe('ClusterJobLinks', () => {
  afterEach(() => vi.restoreAllMocks());

  it("links a batch cluster's page to the job it runs", async () => {
    stubApi({
      'GET /api/v2/jobs/cluster/62': [
        { id: 12, cluster_id: 62, cluster_state: 'ready', state: 'running', user_command: 'x', tasks: [] },
      ],
    });
    renderSignedIn(<ClusterJobLinks clusterId={62} />);
    expect(await screen.findByRole('link', { name: 'Batch job 12' })).toHaveAttribute(
      'href',
      '/batch/jobs/12',
    );
  });

  it('shows nothing for a cluster that runs no job', async () => {
    const api = stubApi({ 'GET /api/v2/jobs/cluster/63': [] });
    renderSignedIn(<ClusterJobLinks clusterId={63} />);
    await vi.waitFor(() => expect(api.callsTo('GET', '/api/v2/jobs/cluster/63')).toHaveLength(1));
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
  });
});
