import { connect } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { issuePass } from '../src/domains/clusters/dashboards/passes.js';
import { dashboardUpstream } from '../src/domains/clusters/dashboards/proxy.js';
import { createReadyCluster, runPython, useClusterServer, waitForClusterState } from './helpers/clusters.js';
import { createUser } from './helpers/factories.js';

/**
 * The Dask dashboard through Cumulus: the scheduler serves its HTTP server under
 * /dashboard/<cluster>/, and the control plane passes requests and WebSockets to it for holders of
 * a valid pass. Here the scheduler's own health route stands for the dashboard pages (Debian's
 * Dask has no bokeh it can use), which exercises the same path.
 */
const c = useClusterServer();
let cluster: { id: number; scheduler: { dashboard_address: string | null } };
let pass: string;
const secret = () => c.ts.server.deps.config.secret;

beforeAll(async () => {
  cluster = await createReadyCluster(c.api, c.slug, { name: 'dash', workers: 0 });
  const me = (await c.api.get('/api/v2/user/me')).body;
  pass = issuePass(secret(), cluster.id, me.id);
}, 120_000);

/** Sends a WebSocket upgrade through the server; answers the status line and headers it got back. */
function upgrade(path: string, cookie?: string): Promise<string> {
  const { port } = new URL(c.ts.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.write(
        `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n' +
          `${cookie ? `Cookie: ${cookie}\r\n` : ''}\r\n`,
      );
    });
    let got = '';
    socket.on('data', (chunk) => {
      got += chunk.toString();
      if (got.includes('\r\n\r\n')) {
        socket.destroy();
        resolve(got.split('\r\n\r\n')[0]!);
      }
    });
    socket.on('error', reject);
    socket.setTimeout(10_000, () => reject(new Error('no answer')));
  });
}

describe('the dashboard proxy', () => {
  it('links to the dashboard only where the scheduler can serve it', async () => {
    const usable = (await runPython('import distributed.dashboard.core').then(
      () => true,
      () => false,
    )) as boolean;
    const details = (await c.api.get(`/api/v2/clusters/account/${c.slug}/id/${cluster.id}`)).body;
    if (usable)
      expect(details.scheduler.dashboard_address).toMatch(
        new RegExp(`/dashboard/${cluster.id}/status\\?token=`),
      );
    else expect(details.scheduler.dashboard_address).toBeNull();
  });

  it("passes a pass holder's requests to the scheduler, keeping the pass in a cookie for the path", async () => {
    const base = `${c.ts.url}/dashboard/${cluster.id}`;
    const first = await fetch(`${base}/health?token=${pass}`);
    expect(first.status).toBe(200);
    expect(await first.text()).toBe('ok');
    const cookie = first.headers.get('set-cookie')!;
    expect(cookie).toContain(`cumulus_dashboard_${cluster.id}=`);
    expect(cookie).toContain(`Path=/dashboard/${cluster.id}/`);
    expect(cookie).toContain('HttpOnly');

    const again = await fetch(`${base}/health`, { headers: { cookie: cookie.split(';')[0]! } });
    expect(again.status).toBe(200);
    expect(await again.text()).toBe('ok');
  });

  it('refuses without a pass, with a forged one, one for another cluster, or one of a user who cannot see it', async () => {
    const base = `${c.ts.url}/dashboard/${cluster.id}`;
    const none = await fetch(`${base}/health`);
    expect(none.status).toBe(403);
    expect((await none.json()).detail).toBe(
      'This dashboard link has expired or is not yours: open the dashboard again from the cluster page.',
    );
    expect((await fetch(`${base}/health?token=${pass.slice(0, -2)}xx`)).status).toBe(403);
    expect((await fetch(`${c.ts.url}/dashboard/${cluster.id + 1}/health?token=${pass}`)).status).toBe(403);
    const outsider = await createUser(c.ts);
    const theirs = issuePass(secret(), cluster.id, outsider.id);
    expect((await fetch(`${base}/health?token=${theirs}`)).status).toBe(403);
    const expired = issuePass(secret(), cluster.id, c.user.id, Date.now() - 13 * 3600_000);
    expect((await fetch(`${base}/health?token=${expired}`)).status).toBe(403);
  });

  it('joins WebSocket upgrades to the scheduler for pass holders only', async () => {
    const path = `/dashboard/${cluster.id}/no-such-socket`;
    const refused = await upgrade(path);
    expect(refused).toMatch(/^HTTP\/1\.1 403/);
    // Through to the scheduler's own server (Tornado), which has no socket there.
    const through = await upgrade(path, `cumulus_dashboard_${cluster.id}=${pass}`);
    expect(through).toMatch(/^HTTP\/1\.1 404/);
    expect(through).toMatch(/Server: TornadoServer/i);
  });

  it('answers 404 once the cluster has stopped', async () => {
    await c.api.delete(`/api/v2/clusters/account/${c.slug}/id/${cluster.id}`);
    await waitForClusterState(c.api, c.slug, cluster.id, 'stopped');
    expect((await fetch(`${c.ts.url}/dashboard/${cluster.id}/health?token=${pass}`)).status).toBe(404);
  });
});

describe('where the proxy reaches a dashboard', () => {
  it("a cloud VM's public address in place of the private one it reports; otherwise what it reports", () => {
    const vm = { privateIp: '10.0.1.5', publicIp: '54.1.2.3' };
    expect(dashboardUpstream('http://10.0.1.5:8787', vm).href).toBe('http://54.1.2.3:8787/');
    expect(dashboardUpstream('http://10.0.1.5:8787', { ...vm, publicIp: null }).href).toBe(
      'http://10.0.1.5:8787/',
    );
    expect(dashboardUpstream('http://127.0.0.1:40123', { privateIp: '127.0.0.1', publicIp: null }).href).toBe(
      'http://127.0.0.1:40123/',
    );
    // An address the scheduler chose itself (another interface) is kept.
    expect(dashboardUpstream('http://10.0.9.9:8787', vm).href).toBe('http://10.0.9.9:8787/');
    expect(dashboardUpstream('http://10.0.1.5:8787').href).toBe('http://10.0.1.5:8787/');
  });
});
