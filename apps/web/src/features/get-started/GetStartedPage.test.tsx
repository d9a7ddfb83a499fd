import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { checklist, isComplete } from '@/features/get-started/checklist';
import { GetStartedPage } from '@/features/get-started/GetStartedPage';
import { stubApi } from '@/test/api-stub';
import { renderSignedIn } from '@/test/signed-in';

/** The flags the checklist reads (the server answers every flag). */
const FLAG_NAMES = ['has-api-key', 'has-created-cluster', 'completed-setup-once'];
const flags = (done: string[]) => FLAG_NAMES.map((name) => ({ name, completed: done.includes(name) }));
const install = {
  server_url: 'http://127.0.0.1:8123',
  package_url: 'http://127.0.0.1:8123/api/v2/client/cumulus.tar.gz',
  client_version: '0.1.0',
  python: { path: '/usr/bin/python3', version: '3.11.2', distributed: '2022.12.1', virtualenv: false },
  install_commands: [
    '/usr/bin/python3 -m venv --system-site-packages ~/.venvs/cumulus',
    'source ~/.venvs/cumulus/bin/activate',
    'pip install --no-build-isolation http://127.0.0.1:8123/api/v2/client/cumulus.tar.gz',
  ].join('\n'),
};

function stub(done: string[], data: Record<string, unknown> = {}, completed = false) {
  let record = { completed, data };
  return stubApi({
    'GET /api/v2/interactions/flag': flags(done),
    'GET /api/v2/interactions/get-started': () => ({ body: record }),
    'PUT /api/v2/interactions/get-started': async (request: Request) => {
      const body = (await request.json()) as { completed?: boolean; data?: Record<string, unknown> };
      record = { completed: body.completed ?? record.completed, data: { ...record.data, ...body.data } };
      return { body: record };
    },
    'GET /api/v2/client/install': install,
  });
}

const step = (name: RegExp) => screen.getByRole('listitem', { name });

describe('the Get Started checklist', () => {
  afterEach(() => vi.restoreAllMocks());

  it('ticks each step from its flag, and install from a terminal sign-in or the user', () => {
    const none = checklist({}, {});
    expect(none.map((s) => s.done)).toEqual([false, false, false, false, false]);
    expect(isComplete(none)).toBe(false);
    expect(checklist({}, { installed: true })[0]!.done).toBe(true);
    expect(checklist({ 'has-api-key': true }, {})[0]!.done).toBe(false);
    expect(checklist({}, { client: { version: '0.1.0' } })[0]!.done).toBe(true);
    const all = checklist(
      { 'has-api-key': true, 'has-created-cluster': true },
      { computed: { clusterId: 4 } },
    );
    expect(all.map((s) => [s.id, s.done])).toEqual([
      ['install', true],
      ['sign-in', true],
      ['cluster', true],
      ['compute', true],
      ['cloud', false],
    ]);
    // The cloud step is optional.
    expect(isComplete(all)).toBe(true);
    // It ticks once a workspace of the user's is set up, by them or by its admin.
    expect(checklist({ 'completed-setup-once': true }, {})[4]!.done).toBe(true);
    expect(checklist({ 'access-to-account-with-completed-setup': true }, {})[4]!.done).toBe(true);
  });

  it('says how many steps it shows: four, and an optional fifth', async () => {
    stub([]);
    renderSignedIn(<GetStartedPage />);
    expect(
      await screen.findByText(
        'From nothing to a computation on a Dask cluster of this server, in four steps; a fifth, connecting your cloud, is optional.',
      ),
    ).toBeInTheDocument();
    expect(
      await screen.findAllByRole('listitem', { name: /^(Install|Sign in|Create|Compute|Connect)/ }),
    ).toHaveLength(5);
  });

  it('does not tick "Install the Python client" for a token made on the Profile page', async () => {
    stub(['has-api-key']);
    renderSignedIn(<GetStartedPage />);
    expect(await screen.findByRole('listitem', { name: 'Install the Python client' })).toBeInTheDocument();
    expect(step(/^Sign in from your terminal \(done\)$/)).toBeInTheDocument();
  });

  it("shows this server's commands and ticks what the user has done", async () => {
    stub(['has-api-key'], { client: { version: '0.1.0' } });
    renderSignedIn(<GetStartedPage />);
    expect(
      await screen.findByRole('listitem', { name: 'Install the Python client (done)' }),
    ).toBeInTheDocument();
    expect(step(/^Sign in from your terminal \(done\)$/)).toBeInTheDocument();
    expect(step(/^Create your first cluster$/)).toBeInTheDocument();
    expect(step(/^Compute on it$/)).toBeInTheDocument();
    expect(within(step(/^Connect your cloud$/)).getByText('Optional')).toBeInTheDocument();
    expect(
      within(step(/^Connect your cloud$/)).getByRole('link', { name: 'Open Cloud setup' }),
    ).toHaveAttribute('href', '/settings/setup');
    expect(await screen.findByText('cumulus login --server http://127.0.0.1:8123')).toBeInTheDocument();
    expect(
      screen.getByText(
        /pip install --no-build-isolation http:\/\/127\.0\.0\.1:8123\/api\/v2\/client\/cumulus\.tar\.gz/,
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('/usr/bin/python3', { selector: 'code' })).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Get Started progress' })).toHaveAttribute(
      'aria-valuenow',
      '2',
    );
    expect(screen.queryByRole('region', { name: 'All set' })).not.toBeInTheDocument();
  });

  it('records that the client is installed when the user says so', async () => {
    const api = stub([]);
    renderSignedIn(<GetStartedPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'I have installed it' }));
    await screen.findByRole('listitem', { name: 'Install the Python client (done)' });
    expect(api.callsTo('PUT', '/api/v2/interactions/get-started')[0]!.body).toEqual({
      data: { installed: true },
    });
  });

  it('completes the checklist once every step is done, and links the first computation', async () => {
    const api = stub(['has-api-key', 'has-created-cluster'], { computed: { cluster_id: 42 } });
    renderSignedIn(<GetStartedPage />);
    expect(await screen.findByRole('region', { name: 'All set' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'cluster #42' })).toHaveAttribute('href', '/clusters/42');
    expect(screen.getByRole('link', { name: /Go to the Dashboard/ })).toHaveAttribute('href', '/clusters');
    await waitFor(() => expect(api.callsTo('PUT', '/api/v2/interactions/get-started')).toHaveLength(1));
    expect(api.callsTo('PUT', '/api/v2/interactions/get-started')[0]!.body).toEqual({ completed: true });
  });

  it('creates from Python in the workspace the console shows, as Create cluster does', async () => {
    stub([]);
    const lab = {
      id: 12,
      slug: 'acme-data',
      name: 'acme-data',
      organization: { id: 7, name: 'Acme', isPersonal: false },
    };
    renderSignedIn(<GetStartedPage />, {
      signedIn: {
        workspaceMemberships: [{ id: 2, account: lab, isAdmin: false, isDefaultAccount: true }] as never,
      },
    });
    const created = await screen.findByRole('listitem', { name: /^Create your first cluster/ });
    expect(within(created).getByText(/in acme-data, your current workspace/)).toBeInTheDocument();
    expect(
      within(created)
        .getAllByRole('code')
        .map((element) => element.textContent),
    ).toContain('import cumulus\n\ncluster = cumulus.Cluster(n_workers=2, workspace="acme-data")');
  });
});
