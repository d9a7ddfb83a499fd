import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { ClustersEmpty } from '@/features/clusters/dashboard/clusters-empty';
import { stubApi } from '@/test/api-stub';
import { renderSignedIn } from '@/test/signed-in';

const install = {
  server_url: 'http://10.0.0.5:8123',
  package_url: 'http://10.0.0.5:8123/api/v2/client/cumulus.tar.gz',
  client_version: '0.1.0',
  python: { path: '/opt/dask/bin/python3', version: '3.11.2', distributed: '2022.12.1', virtualenv: false },
  install_commands: [
    '/opt/dask/bin/python3 -m venv --system-site-packages ~/.venvs/cumulus',
    'source ~/.venvs/cumulus/bin/activate',
    'pip install --no-build-isolation http://10.0.0.5:8123/api/v2/client/cumulus.tar.gz',
  ].join('\n'),
};

describe("the Dashboard's first-cluster guide", () => {
  afterEach(() => vi.restoreAllMocks());

  it("signs in to THIS server (--server) after installing this server's client with the clusters' Python", async () => {
    stubApi({ 'GET /api/v2/client/install': install });
    renderSignedIn(<ClustersEmpty scope="ada" />);
    expect(await screen.findByText('cumulus login --server http://10.0.0.5:8123')).toBeInTheDocument();
    const code = screen.getAllByRole('code').map((element) => element.textContent);
    expect(code[0]).toBe(
      [
        '/opt/dask/bin/python3 -m venv --system-site-packages ~/.venvs/cumulus',
        'source ~/.venvs/cumulus/bin/activate',
        'pip install --no-build-isolation http://10.0.0.5:8123/api/v2/client/cumulus.tar.gz',
      ].join('\n'),
    );
    expect(code[1]).toBe('cumulus login --server http://10.0.0.5:8123');
    expect(screen.getByText('Install the Python client of this server')).toBeInTheDocument();
  });

  it("uses the page's own address until the server has answered", () => {
    stubApi({});
    renderSignedIn(<ClustersEmpty scope="ada" />);
    expect(screen.getByText(`cumulus login --server ${window.location.origin}`)).toBeInTheDocument();
  });
});
