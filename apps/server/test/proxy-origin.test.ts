import { request } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { issuePass, proxyBase, proxyHostOf } from '../src/domains/clusters/dashboards/passes.js';
import { createReadyCluster, useClusterServer } from './helpers/clusters.js';
import { upgradeStatus } from './helpers/upgrade.js';

/**
 * CUMULUS_PROXY_ORIGIN: clusters' pages served to browsers from an origin of their own (here one
 * per cluster, `cluster-<id>.dask.test`, which reaches this server), unsandboxed, and nothing
 * else there; the console's origin still serves them to programs, sandboxed.
 */
const c = useClusterServer({ CUMULUS_PROXY_ORIGIN: 'http://*.dask.test' });
let cluster: { id: number };
let pass: string;

beforeAll(async () => {
  cluster = await createReadyCluster(c.api, c.slug, { name: 'origin', workers: 0 });
  pass = issuePass(c.ts.server.deps.config.secret, cluster.id, c.user.id);
}, 120_000);

/** A request to this server as a browser at `host` sends it. */
function get(
  host: string,
  path: string,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const { port } = new URL(c.ts.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const upgrade = (host: string, path: string, origin: string) =>
  upgradeStatus(c.ts.url, path, { host, origin });

describe('a proxy origin per cluster', () => {
  it("serves the cluster's pages at its own origin, unsandboxed, keeping the pass there", async () => {
    const own = `cluster-${cluster.id}.dask.test`;
    const res = await get(own, `/dashboard/${cluster.id}/health?token=${pass}`);
    expect(res.status).toBe(200);
    expect(res.body).toBe('ok');
    expect(String(res.headers['content-security-policy'] ?? '')).not.toContain('sandbox');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const cookie = [res.headers['set-cookie']].flat().join('\n');
    expect(cookie).toContain(`cumulus_dashboard_${cluster.id}=`);
    expect(cookie).not.toMatch(/domain=/i);
    expect(
      await upgrade(own, `/dashboard/${cluster.id}/no-such-socket?token=${pass}`, `http://${own}`),
    ).toMatch(/^HTTP\/1\.1 404/);
  });

  it("serves nothing else there: not another cluster's pages, not the console, not the API", async () => {
    const other = `cluster-${cluster.id + 1}.dask.test`;
    expect((await get(other, `/dashboard/${cluster.id}/health?token=${pass}`)).status).toBe(404);
    expect((await get(`cluster-${cluster.id}.dask.test`, '/api/v2/user/me')).status).toBe(404);
    expect((await get(`cluster-${cluster.id}.dask.test`, '/')).status).toBe(404);
    // Nor does another cluster's origin start sockets or calls that change things there.
    expect(
      await upgrade(
        `cluster-${cluster.id}.dask.test`,
        `/dashboard/${cluster.id}/no-such-socket?token=${pass}`,
        `http://${other}`,
      ),
    ).toBe('HTTP/1.1 403 Forbidden');
  });

  it("still answers programs on the console's origin, sandboxed", async () => {
    const res = await fetch(`${c.ts.url}/dashboard/${cluster.id}/health?token=${pass}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain('sandbox');
  });
});

describe('where links go', () => {
  it('to the proxy origin configured (one per cluster with `*`), else the console', () => {
    const console = { publicUrl: 'https://cumulus.example.com', proxyOrigin: null };
    expect(proxyBase(console, 7)).toBe('https://cumulus.example.com');
    const perCluster = { ...console, proxyOrigin: 'https://*.dask.example.com' };
    expect(proxyBase(perCluster, 7)).toBe('https://cluster-7.dask.example.com');
    expect(proxyHostOf(perCluster, 'cluster-7.dask.example.com')).toBe(7);
    expect(proxyHostOf(perCluster, 'cluster-7.evil.example.com')).toBeNull();
    expect(proxyHostOf(perCluster, 'cumulus.example.com')).toBeNull();
    const shared = { ...console, proxyOrigin: 'https://dask.example.com:8443' };
    expect(proxyBase(shared, 7)).toBe('https://dask.example.com:8443');
    expect(proxyHostOf(shared, 'dask.example.com:8443')).toBe('any');
    expect(proxyHostOf(shared, 'dask.example.com')).toBeNull();
  });

  it('never to the console host: browsers share cookies between its ports', () => {
    expect(() =>
      loadConfig({
        CUMULUS_PUBLIC_URL: 'http://127.0.0.1:8000',
        CUMULUS_PROXY_ORIGIN: 'http://127.0.0.1:8001',
      }),
    ).toThrow(/CUMULUS_PROXY_ORIGIN/);
    expect(() => loadConfig({ CUMULUS_PROXY_ORIGIN: 'https://dask.example.com/path' })).toThrow(
      /CUMULUS_PROXY_ORIGIN/,
    );
  });
});
