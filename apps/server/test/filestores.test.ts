import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Api } from './helpers/api.js';
import { createClusterRow, createUser, type TestUser } from './helpers/factories.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * Filestores: stores per workspace, files through expiring links
 * Cumulus serves itself, attachments to clusters that their instances sync.
 */
let ts: TestServer;
let owner: TestUser;
let api: Api;
let slug: string;
let asCluster: Api;
let clusterId: number;

/** The path and query of a link the server answered (the test calls the app, not the network). */
const local = (url: string) => url.slice(url.indexOf('/api/'));

beforeAll(async () => {
  ts = await startTestServer();
  owner = await createUser(ts);
  api = ts.api.as(owner.key);
  const me = (await api.get('/api/v2/user/me')).body;
  slug = me.default_account.slug;
  const cluster = await createClusterRow(ts, { id: me.default_account.id }, { id: owner.id });
  clusterId = cluster.id;
  asCluster = ts.api.as(ts.server.deps.secrets.decrypt(cluster.tokenBox));
});
afterAll(async () => ts?.close());

async function upload(url: string, content: string, headers: Record<string, string> = {}) {
  return ts.api.put(local(url), content, { headers: { 'content-type': 'binary/octet-stream', ...headers } });
}

describe('filestores', () => {
  it('gets or creates stores by name, moves files through signed links, and clears them', async () => {
    const listed = await api.post('/api/v2/filestore/list', {
      names: ['inputs', 'outputs'],
      workspace: slug,
    });
    expect(listed.status).toBe(200);
    expect(listed.body.filestores.map((f: any) => f.name)).toEqual(['inputs', 'outputs']);
    const again = await api.post('/api/v2/filestore/list', { names: ['inputs'], workspace: slug });
    const store = listed.body.filestores[0];
    expect(again.body.filestores[0].id).toBe(store.id);
    expect(
      (await api.get('/api/v2/filestore/name/inputs', { query: { workspace: slug } })).body.filestores,
    ).toHaveLength(1);

    const links = await api.post(`/api/v2/filestore/fs/${store.id}/signed-urls/upload`, {
      paths: ['a.txt', 'deep/b.txt'],
    });
    expect(links.status).toBe(200);
    expect(links.body.existing).toEqual({});
    expect((await upload(links.body.urls['a.txt'], 'alpha')).body).toEqual({ size: 5 });
    expect((await upload(links.body.urls['deep/b.txt'], 'beta!')).status).toBe(200);

    // A link is for one path and one direction, and only as signed.
    const tampered = links.body.urls['a.txt'].replace('path=a.txt', 'path=c.txt');
    expect((await upload(tampered, 'x')).status).toBe(403);
    const download = await api.post(`/api/v2/filestore/fs/${store.id}/signed-urls/download`, {
      paths: ['a.txt'],
    });
    expect((await upload(download.body.urls['a.txt'].replace('/download?', '/upload?'), 'x')).status).toBe(
      403,
    );
    expect((await ts.api.get(local(download.body.urls['a.txt']))).text).toBe('alpha');
    expect(
      (await api.post(`/api/v2/filestore/fs/${store.id}/signed-urls/upload`, { paths: ['../escape'] }))
        .status,
    ).toBe(400);

    const again2 = await api.post(`/api/v2/filestore/fs/${store.id}/signed-urls/upload`, {
      paths: ['a.txt'],
    });
    expect(again2.body.existing['a.txt']).toMatchObject({ size: 5 });

    const blobs = await api.get(`/api/v2/filestore/fs/${store.id}/download-with-urls`);
    expect(blobs.body.blobs_with_urls.map((b: any) => [b.relative_path, b.size])).toEqual([
      ['a.txt', 5],
      ['deep/b.txt', 5],
    ]);
    expect((await ts.api.get(local(blobs.body.blobs_with_urls[1].url))).text).toBe('beta!');

    expect((await api.post(`/api/v2/filestore/fs/${store.id}/clear`)).body).toEqual({ ok: true });
    expect(
      (await api.get(`/api/v2/filestore/fs/${store.id}/download-with-urls`)).body.blobs_with_urls,
    ).toEqual([]);
  });

  it('refuses a cut-off upload and keeps nothing of it', async () => {
    const [store] = (await api.post('/api/v2/filestore/list', { names: ['partial'], workspace: slug })).body
      .filestores;
    const links = await api.post(`/api/v2/filestore/fs/${store.id}/signed-urls/upload`, { paths: ['x.bin'] });
    const refused = await ts.server.app.inject({
      method: 'PUT',
      url: local(links.body.urls['x.bin']),
      headers: { 'content-type': 'binary/octet-stream', 'content-length': '10' },
      payload: 'short',
    });
    expect(refused.statusCode).toBe(400);
    expect(
      (await api.get(`/api/v2/filestore/fs/${store.id}/download-with-urls`)).body.blobs_with_urls,
    ).toEqual([]);
  });

  it('attaches stores to a cluster, whose instances read their attachments and report their syncs', async () => {
    const [input] = (await api.post('/api/v2/filestore/list', { names: ['job-in'], workspace: slug })).body
      .filestores;
    const attached = await api.post('/api/v2/filestore/attach', {
      cluster_id: clusterId,
      attachments: [{ id: input.id, input: true, path: 'data', primary: true }],
    });
    expect(attached.status).toBe(200);
    expect(attached.body.attachments).toEqual([
      {
        id: expect.any(Number),
        complete: false,
        input: true,
        output: false,
        primary: true,
        path: 'data',
        filestore: { id: input.id, name: 'job-in' },
      },
    ]);
    const seen = await asCluster.get('/api/v2/filestore/vm/worker');
    expect(seen.body.attachments).toHaveLength(1);
    expect((await asCluster.post(`/api/v2/filestore/fs/${input.id}/status/start`)).body).toEqual({
      complete: false,
    });
    expect((await asCluster.post(`/api/v2/filestore/fs/${input.id}/status/finish`)).body).toEqual({
      complete: true,
    });
    expect((await api.get(`/api/v2/filestore/cluster/${clusterId}`)).body.attachments[0].complete).toBe(true);
    // Users do not report syncs, and a store of another workspace cannot be attached.
    expect((await api.post(`/api/v2/filestore/fs/${input.id}/status/start`)).status).toBe(403);
    const stranger = await createUser(ts);
    const theirs = (await ts.api.as(stranger.key).post('/api/v2/filestore/list', { names: ['mine'] })).body
      .filestores[0];
    const foreign = await api.post('/api/v2/filestore/attach', {
      cluster_id: clusterId,
      attachments: [{ id: theirs.id, input: true }],
    });
    expect(foreign.status).toBe(400);
    expect(
      (await ts.api.as(stranger.key).get(`/api/v2/filestore/fs/${input.id}/download-with-urls`)).status,
    ).toBe(404);
  });
});
