import { connect } from 'node:net';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { clusters } from '../src/db/schema/index.js';
import { issuePass } from '../src/domains/clusters/dashboards/passes.js';
import { createReadyCluster, useClusterServer, waitFor } from './helpers/clusters.js';
import { createUser } from './helpers/factories.js';

/**
 * A notebook cluster's Jupyter through Cumulus: the scheduler's agent runs the real Jupyter
 * (JupyterLab, or Debian's python3-notebook, which scripts/setup.sh installs) under
 * /dashboard/<cluster>/jupyter/ with a token only the control plane knows; the proxy passes every
 * method and WebSocket to it for holders of a valid pass of their own, and refuses anyone else.
 */
const c = useClusterServer();
let cluster: { id: number };
let base: string;
let pass: string;
let jupyterAddress: string;

beforeAll(async () => {
  cluster = await createReadyCluster(c.api, c.slug, {
    name: 'jupyter',
    workers: 0,
    tags: { 'cumulus-cluster-type': 'notebook' },
    scheduler_options: { jupyter: true, no_client_timeout: null },
  });
  const link = await waitFor(
    'Jupyter to serve',
    async () =>
      ((await c.api.get(`/api/v2/clusters/account/${c.slug}/id/${cluster.id}`)).body.scheduler
        .jupyter_address as string | null) ?? undefined,
    240_000,
    1000,
  );
  const url = new URL(link);
  expect(url.pathname).toMatch(new RegExp(`^/dashboard/${cluster.id}/jupyter/(lab|tree)$`));
  pass = url.searchParams.get('token')!;
  base = `${c.ts.url}/dashboard/${cluster.id}/jupyter`;
  const [row] = await c.ts.server.deps.db.select().from(clusters).where(eq(clusters.id, cluster.id));
  jupyterAddress = row!.jupyterAddress!;
}, 360_000);

function upgrade(path: string): Promise<string> {
  const { port } = new URL(c.ts.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.write(
        `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${c.ts.url}\r\nUpgrade: websocket\r\n` +
          'Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
      );
    });
    let got = '';
    socket.on('data', (chunk) => {
      got += chunk.toString();
      if (got.includes('\r\n\r\n')) {
        socket.destroy();
        resolve(got.split('\r\n')[0]!);
      }
    });
    socket.on('error', reject);
    socket.setTimeout(20_000, () => reject(new Error('no answer')));
  });
}

describe('Jupyter through the proxy', () => {
  it("serves the pass holder's requests, every method, with Jupyter's own token added", async () => {
    const status = await fetch(`${base}/api/status?token=${pass}`);
    expect(status.status).toBe(200);
    expect(await status.json()).toHaveProperty('kernels');
    // Jupyter sets cookies of its own beside the proxy's pass.
    const cookie = status.headers
      .getSetCookie()
      .find((c) => c.startsWith(`cumulus_dashboard_${cluster.id}=`))!
      .split(';')[0]!;
    const page = await fetch(`${base}/tree`, { headers: { cookie } });
    expect(page.status).toBe(200);

    const kernel = await fetch(`${base}/api/kernels?token=${pass}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: c.ts.url },
      body: '{}',
    });
    expect(kernel.status, await kernel.clone().text()).toBe(201);
    const { id } = (await kernel.json()) as { id: string };
    expect(await upgrade(`/dashboard/${cluster.id}/jupyter/api/kernels/${id}/channels?token=${pass}`)).toBe(
      'HTTP/1.1 101 Switching Protocols',
    );
    const gone = await fetch(`${base}/api/kernels/${id}`, { method: 'DELETE', headers: { cookie } });
    expect(gone.status).toBe(204);
  });

  it('refuses without a pass, with a forged one, and to a user who cannot read the cluster', async () => {
    expect((await fetch(`${base}/api/status`)).status).toBe(403);
    const [who, expires] = pass.split('.');
    expect((await fetch(`${base}/api/status?token=${who}.${expires}.forged`)).status).toBe(403);
    const stranger = await createUser(c.ts);
    const theirs = issuePass(c.ts.server.deps.config.secret, cluster.id, stranger.id);
    expect((await fetch(`${base}/api/status?token=${theirs}`)).status).toBe(403);
    expect(await upgrade(`/dashboard/${cluster.id}/jupyter/api/kernels/x/channels`)).toBe(
      'HTTP/1.1 403 Forbidden',
    );
    expect(await upgrade(`/dashboard/${cluster.id}/jupyter/api/kernels/x/channels?token=${theirs}`)).toBe(
      'HTTP/1.1 403 Forbidden',
    );
  });

  it("is no open door on the instance: Jupyter's own port asks for its token", async () => {
    const direct = await fetch(`${jupyterAddress}/dashboard/${cluster.id}/jupyter/api/status`);
    expect(direct.status).toBe(403);
  });
});
