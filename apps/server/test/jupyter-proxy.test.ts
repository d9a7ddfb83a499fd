import { createServer } from 'node:http';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { clusters, workspaces } from '../src/db/schema/index.js';
import { issuePass } from '../src/domains/clusters/dashboards/passes.js';
import {
  createReadyCluster,
  schedulerAgentCredentials,
  useClusterServer,
  waitFor,
} from './helpers/clusters.js';
import { addMember, createUser } from './helpers/factories.js';
import { upgradeStatus } from './helpers/upgrade.js';

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

const upgrade = (path: string, origin = c.ts.url) => upgradeStatus(c.ts.url, path, { origin });

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

  it("passes none of Jupyter's cookies on, and serves its pages sandboxed", async () => {
    const page = await fetch(`${base}/tree?token=${pass}`);
    expect(page.status).toBe(200);
    const set = page.headers.getSetCookie().map((v) => v.split('=')[0]);
    expect(set).toEqual([`cumulus_dashboard_${cluster.id}`]);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/(^|[;,])\s*sandbox\b/);
    expect(csp).not.toContain('allow-same-origin');
  });

  it("is its creator's alone: another member sees the notebook, not its link, and their pass opens nothing", async () => {
    const { db, config } = c.ts.server.deps;
    const [workspace] = await db.select().from(workspaces).where(eq(workspaces.slug, c.slug));
    const colleague = await createUser(c.ts);
    await addMember(
      c.ts,
      colleague,
      { id: workspace!.organizationId },
      { workspaces: [{ workspace: workspace! }] },
    );
    const theirs = await c.ts.api
      .as(colleague.key)
      .get(`/api/v2/clusters/account/${c.slug}/id/${cluster.id}`);
    expect(theirs.status).toBe(200);
    expect(theirs.body.tags['cumulus-cluster-type']).toBe('notebook');
    expect(theirs.body.scheduler.jupyter_address).toBeNull();
    const listed = await c.ts.api
      .as(colleague.key)
      .get('/api/v2/clusters/paginate-notebook', { query: { account: c.slug } });
    expect(listed.body.items.map((n: { id: number }) => n.id)).toContain(cluster.id);
    expect(JSON.stringify(listed.body)).not.toContain('/jupyter/');
    // A pass of theirs, as the cluster details would give them for the dashboard, opens no Jupyter.
    const colleaguePass = issuePass(config.secret, cluster.id, colleague.id);
    expect((await fetch(`${base}/api/status?token=${colleaguePass}`)).status).toBe(403);
    const kernel = await fetch(`${base}/api/kernels?token=${colleaguePass}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(kernel.status).toBe(403);
    expect(
      await upgrade(`/dashboard/${cluster.id}/jupyter/api/kernels/x/channels?token=${colleaguePass}`),
    ).toBe('HTTP/1.1 403 Forbidden');
    // The cluster's dashboard stays every member's (once its scheduler has said where it serves).
    await waitFor(
      'the dashboard to answer the colleague',
      async () =>
        (await fetch(`${c.ts.url}/dashboard/${cluster.id}/health?token=${colleaguePass}`)).status === 200,
    );
  });

  it("refuses a Jupyter address that is not the scheduler instance's own (SSRF): 400 naming the field", async () => {
    const reached: string[] = [];
    const internal = createServer((req, res) => {
      reached.push(req.url ?? '');
      res.end('{}');
    });
    await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
    try {
      const internalPort = (internal.address() as { port: number }).port;
      const { token, backendId } = await schedulerAgentCredentials(c.ts, cluster.id);
      for (const address of [
        `http://127.0.0.1:${internalPort}`,
        `http://127.0.0.1:${new URL(c.ts.url).port}`,
        jupyterAddress.replace('127.0.0.1', 'localhost'),
      ]) {
        const res = await c.ts.api
          .as(token)
          .patch('/api/v2/cluster_facing/scheduler/jupyter', { backend_id: backendId, address, ui: 'tree' });
        expect(res.status, `${address}: ${res.text}`).toBe(400);
        expect(res.body).toHaveProperty('address');
      }
      const [row] = await c.ts.server.deps.db.select().from(clusters).where(eq(clusters.id, cluster.id));
      expect(row!.jupyterAddress).toBe(jupyterAddress);
      expect((await fetch(`${base}/api/status?token=${pass}`)).status).toBe(200);
      expect(reached).toEqual([]);
    } finally {
      internal.close();
    }
  });

  it('refuses unsafe calls and sockets that another site starts, whatever pass they carry', async () => {
    const kernel = await fetch(`${base}/api/kernels?token=${pass}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://evil.example' },
      body: '{}',
    });
    expect(kernel.status).toBe(403);
    expect(
      await upgrade(
        `/dashboard/${cluster.id}/jupyter/api/kernels/x/channels?token=${pass}`,
        'http://evil.example',
      ),
    ).toBe('HTTP/1.1 403 Forbidden');
  });

  it("is no open door on the instance: Jupyter's own port asks for its token", async () => {
    const direct = await fetch(`${jupyterAddress}/dashboard/${cluster.id}/jupyter/api/status`);
    expect(direct.status).toBe(403);
  });
});
