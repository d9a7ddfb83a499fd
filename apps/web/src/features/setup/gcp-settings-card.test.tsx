import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { GcpSettingsCard } from '@/features/setup/gcp-settings-card';
import { reply, stubApi } from '@/test/api-stub';
import { renderSignedIn } from '@/test/signed-in';

const SETTINGS = '/api/v2/setup/account/acme/gcp/settings';
const stored = {
  worker_instance_types: ['e2-standard-4'],
  scheduler_instance_types: ['e2-standard-4'],
  spot: false,
  spot_on_demand_fallback: false,
  disk_size_gib: 50,
  zone: 'us-east1-b',
};

describe('the GCP settings card (step 3)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('saves machine types, Spot with fallback and the disk size as the server takes them', async () => {
    const api = stubApi({
      [`GET ${SETTINGS}`]: stored,
      [`PATCH ${SETTINGS}`]: async (request: Request) => ({ body: { ...stored, ...(await request.json()) } }),
    });
    renderSignedIn(<GcpSettingsCard account="acme" isAdmin />);
    const user = userEvent.setup();
    const workers = await screen.findByLabelText('Worker machine types');
    expect(workers).toHaveValue('e2-standard-4');
    await user.clear(workers);
    await user.type(workers, 'n2-standard-4, e2-standard-8');
    const disk = screen.getByLabelText('Boot disk size (GiB)');
    await user.clear(disk);
    await user.type(disk, '100');
    await user.click(screen.getByRole('switch', { name: 'Spot workers' }));
    await user.click(screen.getByRole('switch', { name: 'On demand when spot capacity is short' }));
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Settings saved');
    expect(api.callsTo('PATCH', SETTINGS).map((c) => c.body)).toEqual([
      {
        worker_instance_types: ['n2-standard-4', 'e2-standard-8'],
        scheduler_instance_types: ['e2-standard-4'],
        spot: true,
        spot_on_demand_fallback: true,
        disk_size_gib: 100,
      },
    ]);
  });

  it("shows the server's refusal, and members see the settings without a save", async () => {
    stubApi({
      [`GET ${SETTINGS}`]: stored,
      [`PATCH ${SETTINGS}`]: reply(400, { worker_instance_types: ['m6i.xlarge is not a vm_gcp type.'] }),
    });
    const { unmount } = renderSignedIn(<GcpSettingsCard account="acme" isAdmin />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Save settings' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('m6i.xlarge is not a vm_gcp type.');
    unmount();
    renderSignedIn(<GcpSettingsCard account="acme" isAdmin={false} />);
    expect(await screen.findByLabelText('Worker machine types')).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save settings' })).toBeNull();
  });
});
