import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { SshHostsCard } from '@/features/setup/ssh-hosts-card';
import { stubApi } from '@/test/api-stub';
import { renderSignedIn } from '@/test/signed-in';

const host = (over: Record<string, unknown>) => ({
  id: 1,
  name: 'gpu-box',
  address: '10.0.0.5',
  port: 22,
  user: 'dask',
  host_key: 'ssh-ed25519 AAAA',
  cores: 8,
  memory_mib: 16_384,
  gpus: 0,
  labels: [],
  python: '/usr/bin/python3',
  health: null,
  checked_at: null,
  used_cores: 2,
  used_memory_mib: 4096,
  used_gpus: 0,
  created: '2026-11-30T00:00:00Z',
  ...over,
});

function show(over: Record<string, unknown>) {
  stubApi({ 'GET /api/v2/ssh-hosts/acme': { items: [host(over)], count: 1 } });
  renderSignedIn(<SshHostsCard account="acme" isAdmin={false} />);
}

describe('an SSH host on the setup page', () => {
  afterEach(() => vi.restoreAllMocks());

  it('says how many of its GPUs Cumulus uses beside its cores and memory', async () => {
    show({ gpus: 2, used_gpus: 1 });
    expect(await screen.findByText('8 cores · 16 GiB · 2 GPUs')).toBeInTheDocument();
    expect(screen.getByText('2 cores · 4 GiB · 1 GPU')).toBeInTheDocument();
  });

  it('says when Cumulus runs nothing there yet', async () => {
    show({ gpus: 2, used_cores: 0, used_memory_mib: 0 });
    expect(await screen.findByText('nothing yet')).toBeInTheDocument();
  });

  it('says nothing of GPUs on a host without them', async () => {
    show({});
    expect(await screen.findByText('8 cores · 16 GiB')).toBeInTheDocument();
    expect(screen.getByText('2 cores · 4 GiB')).toBeInTheDocument();
  });
});
