import { createServer, get, type Server } from 'node:http';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusters } from '../src/db/schema/index.js';
import { issuePass } from '../src/domains/clusters/dashboards/passes.js';
import { dashboardUpstream } from '../src/domains/clusters/dashboards/proxy.js';
import {
  createReadyCluster,
  runPython,
  schedulerAgentCredentials,
  useClusterServer,
  waitForClusterState,
} from './helpers/clusters.js';
import { createUser } from './helpers/factories.js';
import { sendUpgrade } from './helpers/upgrade.js';

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

/** A service on this machine that no cluster should reach through the proxy: it counts who did. */
let internal: Server;
let internalPort: number;
const reachedInternal: string[] = [];

beforeAll(async () => {
  cluster = await createReadyCluster(c.api, c.slug, { name: 'dash', workers: 0 });
  const me = (await c.api.get('/api/v2/user/me')).body;
  pass = issuePass(secret(), cluster.id, me.id);
  internal = createServer((req, res) => {
    reachedInternal.push(req.url ?? '');
    res.setHeader('set-cookie', 'internal=1; Path=/');
    res.end('internal secret');
  });
  await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
  internalPort = (internal.address() as { port: number }).port;
}, 120_000);
afterAll(() => new Promise<void>((resolve) => (internal ? internal.close(() => resolve()) : resolve())));

const SCHEDULER_REPORT = '/api/v2/cluster_facing/scheduler/phone-home/instance';
const row = async (id: number) =>
  (await c.ts.server.deps.db.select().from(clusters).where(eq(clusters.id, id)))[0]!;
const dashboardAddressOf = async (id: number) => (await row(id)).dashboardAddress;

/** Sends a WebSocket upgrade through the server; answers the status line and headers it got back. */
const upgrade = (path: string, cookie?: string) => sendUpgrade(c.ts.url, path, cookie ? { cookie } : {});

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

  /** A browser's page load (fetch would say it is a script's call: Sec-Fetch-Mode cors). */
  const navigate = (url: string) =>
    new Promise<{ status: number; type: string; html: string }>((resolve, reject) =>
      get(url, { headers: { accept: 'text/html,*/*;q=0.8', 'sec-fetch-mode': 'navigate' } }, (res) => {
        let html = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (html += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode!, type: res.headers['content-type'] ?? '', html }),
        );
      }).once('error', reject),
    );

  it('shows a person whose link expired or is refused a page with a way back, not JSON', async () => {
    const consoleUrl = c.ts.server.deps.config.publicUrl.replace(/\/$/, '');
    const expired = issuePass(secret(), cluster.id, c.user.id, Date.now() - 13 * 3600_000);
    const dashboard = await navigate(`${c.ts.url}/dashboard/${cluster.id}/status?token=${expired}`);
    expect(dashboard.status).toBe(403);
    expect(dashboard.type).toContain('text/html');
    expect(dashboard.html).toContain('<h1>The dashboard cannot be opened</h1>');
    expect(dashboard.html).toContain('This dashboard link has expired or is not yours');
    expect(dashboard.html).toContain(
      `<a class="primary" href="${consoleUrl}/clusters/${cluster.id}">Back to the cluster</a>`,
    );

    // Jupyter's refusal leads back to the Notebooks page; a page's own scripts still get JSON.
    const jupyter = await navigate(`${c.ts.url}/dashboard/${cluster.id}/jupyter/lab?token=${expired}`);
    expect(jupyter.status).toBe(403);
    expect(jupyter.html).toContain('This Jupyter link has expired or is not yours');
    expect(jupyter.html).toContain(`href="${consoleUrl}/notebooks">Back to Notebooks</a>`);
    const script = await fetch(`${c.ts.url}/dashboard/${cluster.id}/jupyter/api/status?token=${expired}`, {
      headers: { accept: 'application/json', 'sec-fetch-mode': 'cors' },
    });
    expect((await script.json()).code).toBe('DASHBOARD_PASS_INVALID');
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

  it("serves the scheduler's pages sandboxed: no cookie of theirs, no script of theirs on the console's origin", async () => {
    const res = await fetch(`${c.ts.url}/dashboard/${cluster.id}/health?token=${pass}`);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/(^|[;,])\s*sandbox\b/);
    expect(csp).not.toContain('allow-same-origin');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it("refuses a dashboard address that is not the scheduler instance's own (SSRF): 400 naming the field, nothing recorded", async () => {
    const { token, backendId } = await schedulerAgentCredentials(c.ts, cluster.id);
    const agent = c.ts.api.as(token);
    const real = await dashboardAddressOf(cluster.id);
    expect(real).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const serverPort = new URL(c.ts.url).port;
    // As the agent reports its scheduler started: the report that records the dashboard's address.
    const started = {
      backend_id: backendId,
      state: 'started',
      address: (await row(cluster.id)).schedulerAddress,
    };
    for (const dashboard_address of [
      // A port on the scheduler's address where none of its processes listens: another service here.
      `http://127.0.0.1:${internalPort}`,
      `http://127.0.0.1:${serverPort}/`,
      // Another host name for the same machine, and a path of the upstream's choosing.
      real!.replace('127.0.0.1', 'localhost'),
      `${real}/api/`,
    ]) {
      const res = await agent.patch(SCHEDULER_REPORT, { ...started, dashboard_address });
      expect(res.status, `${dashboard_address}: ${res.text}`).toBe(400);
      expect(res.body).toHaveProperty('dashboard_address');
    }
    expect(await dashboardAddressOf(cluster.id)).toBe(real);
    const through = await fetch(`${c.ts.url}/dashboard/${cluster.id}/health?token=${pass}`);
    expect(await through.text()).toBe('ok');
    expect(reachedInternal).toEqual([]);
    // What the scheduler really serves is taken again.
    const again = await agent.patch(SCHEDULER_REPORT, { ...started, dashboard_address: real });
    expect(again.status, again.text).toBe(200);
  });

  it('goes only to the scheduler instance, whatever address was recorded, and passes no cookie of the upstream', async () => {
    const real = await dashboardAddressOf(cluster.id);
    const { db } = c.ts.server.deps;
    try {
      for (const planted of [`http://localhost:${internalPort}`, `http://127.0.0.1:${internalPort}`]) {
        await db.update(clusters).set({ dashboardAddress: planted }).where(eq(clusters.id, cluster.id));
        const res = await fetch(`${c.ts.url}/dashboard/${cluster.id}/health?token=${pass}`);
        expect(res.status, planted).toBe(502);
        expect(res.headers.getSetCookie().filter((v) => v.startsWith('internal='))).toEqual([]);
      }
      expect(reachedInternal).toEqual([]);
    } finally {
      await db.update(clusters).set({ dashboardAddress: real }).where(eq(clusters.id, cluster.id));
    }
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
