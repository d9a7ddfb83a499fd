import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { SlurmClusterCard } from '@/features/setup/slurm-cluster-card';
import { stubApi } from '@/test/api-stub';
import { renderSignedIn } from '@/test/signed-in';

async function loginChoices(logins: string[]) {
  stubApi({ 'GET /api/v2/slurm-clusters/acme': { items: [], count: 0, logins } });
  renderSignedIn(<SlurmClusterCard account="acme" isAdmin />);
  const user = userEvent.setup();
  await user.click(await screen.findByRole('combobox', { name: 'Login node' }));
  return (await screen.findAllByRole('option')).map((option) => option.textContent);
}

describe("the Slurm card's login choices", () => {
  afterEach(() => vi.restoreAllMocks());

  it('offers this server as the login node only where the server says its operator allows it', async () => {
    expect(await loginChoices(['ssh', 'rest'])).toEqual(['Over SSH', 'slurmrestd (JWT)']);
  });

  it('offers all three where it does', async () => {
    expect(await loginChoices(['ssh', 'local', 'rest'])).toEqual([
      'Over SSH',
      'This Cumulus server',
      'slurmrestd (JWT)',
    ]);
  });
});
