import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { CreateEnvironmentDialog } from '@/features/software/create-environment-dialog';
import { stubApi } from '@/test/api-stub';
import { renderSignedIn } from '@/test/signed-in';

const OPTIONS = '/api/v2/user/account/acme/options';

function options(builds: string[], backend = 'in_process', provider = 'local') {
  return {
    account: 'acme',
    backend_type: backend,
    provider_name: provider,
    can_use_cumulus_hosted: true,
    capabilities: { ssh: false, dashboards: true, gpus: false, spot: false, firewall: false, builds },
    core_limit: null,
    credit_limit: null,
    workspace_credit_limit: null,
    default_software_environment: null,
    default_idle_timeout: '20 minutes',
  };
}

function open(builds: string[], backend?: string, provider?: string) {
  stubApi({ [`GET ${OPTIONS}`]: options(builds, backend, provider) });
  renderSignedIn(
    <CreateEnvironmentDialog open onOpenChange={vi.fn()} workspace={{ slug: 'acme', name: 'Acme' }} />,
  );
}

describe('the Create software environment dialog', () => {
  afterEach(() => vi.restoreAllMocks());

  it("offers only what the workspace's backend builds: pip alone, no conda or container tab", async () => {
    open(['pip']);
    expect(await screen.findByLabelText('pip requirements')).toBeInTheDocument();
    // Wait for the options to arrive, then no tab offers what the backend cannot build.
    await vi.waitFor(() => expect(screen.queryByRole('tab', { name: 'conda' })).not.toBeInTheDocument());
    expect(screen.queryByRole('tab', { name: 'Container' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create and build' })).toBeInTheDocument();
  });

  it('offers a tab per kind the backend builds', async () => {
    open(['pip', 'conda']);
    expect(await screen.findByRole('tab', { name: 'conda' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'pip' })).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: 'Container' })).not.toBeInTheDocument();
  });

  it('says so when the backend builds nothing, instead of a build that can only fail', async () => {
    open([], 'vm_aws', 'aws');
    expect(
      await screen.findByText('Clusters of Acme run on aws, which cannot build software environments.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create and build' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
  });
});
