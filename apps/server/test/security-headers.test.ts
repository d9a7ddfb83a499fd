import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * Every answer of the console and the API carries the headers that keep the console out of
 * frames, stop type sniffing, send no Referer (dashboard links carry a pass) and allow only the
 * console's own scripts: the built index.html's one inline script by its hash, nothing else inline.
 */
const dist = mkdtempSync(path.join(tmpdir(), 'cumulus-console-'));
const INLINE = 'try{window.early=localStorage.getItem("cumulus.token")}catch{}';
writeFileSync(
  path.join(dist, 'index.html'),
  `<!doctype html><html style="color-scheme: dark"><head><title>Cumulus</title><script>${INLINE}</script>` +
    '<script type="module" crossorigin src="/assets/index-4-Srjexl.js"></script></head><body></body></html>',
);

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer({ CUMULUS_WEB_DIST: dist });
});
afterAll(async () => {
  await ts.close();
  rmSync(dist, { recursive: true, force: true });
});

const get = (url: string) => ts.app.inject({ method: 'GET', url });
const directives = (csp: unknown) =>
  new Map(
    String(csp ?? '')
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name!, values]),
  );

describe('security headers', () => {
  it('are on the console, the API, its errors and 404s, and /docs', async () => {
    for (const [url, status] of [
      ['/', 200],
      ['/clusters/12', 200],
      ['/api/health', 200],
      ['/api/v2/user/me', 401],
      ['/api/v2/no-such-call', 404],
      ['/docs', 200],
      ['/docs/no-such-page', 404],
    ] as const) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(status);
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(res.headers['referrer-policy'], url).toBe('no-referrer');
      const csp = directives(res.headers['content-security-policy']);
      expect(csp.get('frame-ancestors'), url).toEqual(["'none'"]);
      expect(csp.get('object-src') ?? csp.get('default-src'), url).toEqual(["'none'"]);
      const scripts = csp.get('script-src') ?? csp.get('default-src');
      expect(scripts, url).not.toContain("'unsafe-inline'");
      expect(scripts, url).not.toContain("'unsafe-eval'");
    }
  });

  it("allow the console's own scripts and its one inline script, by hash", async () => {
    const csp = directives((await get('/')).headers['content-security-policy']);
    const hash = createHash('sha256').update(INLINE).digest('base64');
    expect(csp.get('script-src')).toEqual(["'self'", `'sha256-${hash}'`]);
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
    expect(csp.get('base-uri')).toEqual(["'none'"]);
  });
});
