import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';

// A built console as `npm run build -w apps/web` leaves it: hashed assets with their .br and .gz
// beside them (apps/web/bundling/precompress.ts), index.html likewise, small files alone.
const dist = mkdtempSync(path.join(tmpdir(), 'cumulus-console-'));
const SCRIPT = Buffer.from(
  Array.from({ length: 400 }, (_, i) => `export const value${i} = ${i} * 7;\n`).join(''),
  'utf8',
);
const INDEX = Buffer.from(
  `<!doctype html><html><head><title>Cumulus</title>${'<link rel="modulepreload" href="/assets/x.js">'.repeat(20)}</head><body><div id="root"></div></body></html>`,
  'utf8',
);
const STYLE = Buffer.from('.a{color:red}'.repeat(200), 'utf8');
function write(file: string, bytes: Buffer, encodings: ('br' | 'gz')[]) {
  const at = path.join(dist, file);
  mkdirSync(path.dirname(at), { recursive: true });
  writeFileSync(at, bytes);
  if (encodings.includes('br')) writeFileSync(`${at}.br`, brotliCompressSync(bytes));
  if (encodings.includes('gz')) writeFileSync(`${at}.gz`, gzipSync(bytes));
}
write('index.html', INDEX, ['br', 'gz']);
write('assets/index-4-Srjexl.js', SCRIPT, ['br', 'gz']);
write('assets/index-BW7bI-u9.css', STYLE, ['gz']);
write('assets/tiny-Ab_9xY-z.js', Buffer.from('export{};'), []);
write('robots.txt', Buffer.from('User-agent: *\n'), []);

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer({ CUMULUS_WEB_DIST: dist });
});
afterAll(async () => {
  await ts.close();
  rmSync(dist, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}) =>
  ts.app.inject({ method: 'GET', url, headers });
const IMMUTABLE = 'public, max-age=31536000, immutable';

describe('the built console', () => {
  it('sends hashed assets brotli-compressed to browsers that take it, cached for a year', async () => {
    const res = await get('/assets/index-4-Srjexl.js', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(res.headers['cache-control']).toBe(IMMUTABLE);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.rawPayload.length).toBeLessThan(SCRIPT.length / 3);
    expect(brotliDecompressSync(res.rawPayload).equals(SCRIPT)).toBe(true);
  });

  it('sends gzip to a client without brotli, and the file as it is to one that asks for neither', async () => {
    const gzip = await get('/assets/index-4-Srjexl.js', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers['cache-control']).toBe(IMMUTABLE);
    expect(gunzipSync(gzip.rawPayload).equals(SCRIPT)).toBe(true);

    const plain = await get('/assets/index-4-Srjexl.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['cache-control']).toBe(IMMUTABLE);
    expect(plain.rawPayload.equals(SCRIPT)).toBe(true);
  });

  it('falls back to the encodings the build left: gzip when there is no .br, none for small files', async () => {
    const style = await get('/assets/index-BW7bI-u9.css', { 'accept-encoding': 'br, gzip' });
    expect(style.headers['content-encoding']).toBe('gzip');
    expect(style.headers['content-type']).toMatch(/^text\/css/);
    expect(gunzipSync(style.rawPayload).equals(STYLE)).toBe(true);

    const tiny = await get('/assets/tiny-Ab_9xY-z.js', { 'accept-encoding': 'br, gzip' });
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.headers['cache-control']).toBe(IMMUTABLE);
    expect(tiny.body).toBe('export{};');
  });

  it('revalidates index.html (every console path) and unhashed files with their ETag', async () => {
    for (const url of ['/', '/clusters', '/clusters/7/logs?account=acme']) {
      const res = await get(url, { 'accept-encoding': 'br' });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(brotliDecompressSync(res.rawPayload).equals(INDEX), url).toBe(true);
      const etag = res.headers.etag;
      expect(etag, url).toBeTruthy();
      const again = await get(url, { 'accept-encoding': 'br', 'if-none-match': String(etag) });
      expect(again.statusCode, url).toBe(304);
    }
    const robots = await get('/robots.txt');
    expect(robots.headers['cache-control']).toBe('no-cache');
    expect(robots.headers.etag).toBeTruthy();
  });

  it('keeps API paths JSON', async () => {
    const res = await get('/api/v2/nothing-here', { 'accept-encoding': 'br' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not found.', code: 'NOT_FOUND' });
  });
});
