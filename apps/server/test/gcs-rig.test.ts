import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Storage } from '@google-cloud/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedUrl } from '../src/compute/gcp/archives.js';
import { storageAuth } from '../src/compute/gcp/sdk.js';
import { gcloudOf, gcloudRunOf } from './helpers/gce-rig/clients.js';
import { validPermission } from './helpers/gce-rig/resource-manager.js';
import { GceRig } from './helpers/gce-rig/rig.js';

/**
 * The rig's Cloud Storage held to two clients: `gcloud storage` (uploads multipart and resumable,
 * listings, downloads it checks against the objects' MD5 and CRC32C, deletes; `sign-url` with a key
 * file, whose links and probe the rig's V4 signature check must take) and `@google-cloud/storage`
 * (bucket made with labels and uniform access, objects saved, listed, copied, deleted). The
 * server's own V4 signer (compute/gcp/archives.ts) is checked by the rig that gcloud's links hold.
 */
let rig: GceRig;
let gcloudConfig: string;
let gcloud: ReturnType<typeof gcloudOf>;
const dir = mkdtempSync(path.join(tmpdir(), 'cumulus-gcs-rig-test-'));
const BUCKET = 'cumulus-rig-test-bucket';

function nodeStorage(token = rig.tokens.issue()): Storage {
  const auth = new (storageAuth().OAuth2Client)();
  auth.setCredentials({ access_token: token });
  return new Storage({
    apiEndpoint: rig.url,
    projectId: rig.project,
    authClient: auth as never,
    useAuthWithCustomEndpoint: true,
    retryOptions: { autoRetry: false },
  });
}

beforeAll(async () => {
  gcloudConfig = mkdtempSync(path.join(tmpdir(), 'cumulus-gcloud-'));
  rig = await new GceRig().start();
  gcloud = gcloudOf(rig, gcloudConfig);
});

afterAll(async () => {
  await rig?.stop();
  rmSync(gcloudConfig, { recursive: true, force: true });
  rmSync(dir, { recursive: true, force: true });
});

/** `gcloud storage sign-url` of an object with a key file: the signed URL. */
async function signUrl(object: string, keyFile: string, duration: string): Promise<string> {
  const [signed] = JSON.parse(
    await gcloud(
      'storage',
      'sign-url',
      `gs://${BUCKET}/${object}`,
      `--private-key-file=${keyFile}`,
      `--duration=${duration}`,
      '--format=json',
    ),
  ) as { signed_url: string }[];
  return signed!.signed_url;
}

const raw = (method: string, route: string, body?: unknown, token: string | null = rig.tokens.issue()) =>
  fetch(`${rig.url}${route}`, {
    method,
    headers: { ...(token && { authorization: `Bearer ${token}` }), 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });

describe('the GCS rig', { timeout: 120_000 }, () => {
  it('serves @google-cloud/storage: a bucket with labels and uniform access, objects saved, listed, copied, deleted', async () => {
    const storage = nodeStorage();
    const [bucket] = await storage.createBucket(BUCKET, {
      location: 'us-central1',
      iamConfiguration: { uniformBucketLevelAccess: { enabled: true }, publicAccessPrevention: 'enforced' },
      labels: { 'cumulus-workspace': '7' },
    });
    expect(bucket.metadata.location).toBe('US-CENTRAL1');
    expect(bucket.metadata.labels).toEqual({ 'cumulus-workspace': '7' });
    expect(bucket.metadata.iamConfiguration?.uniformBucketLevelAccess?.enabled).toBe(true);
    expect(bucket.metadata.iamConfiguration?.publicAccessPrevention).toBe('enforced');
    await expect(storage.createBucket(BUCKET)).rejects.toMatchObject({ code: 409 });

    const files = storage.bucket(BUCKET);
    await files.file('node/a.txt').save('from node', { resumable: false, contentType: 'text/plain' });
    const [data] = await files.file('node/a.txt').download();
    expect(data.toString()).toBe('from node');
    await files.file('node/a.txt').copy(files.file('node/b.txt'));
    const [listed] = await files.getFiles({ prefix: 'node/' });
    expect(listed.map((f) => f.name)).toEqual(['node/a.txt', 'node/b.txt']);
    const [metadata] = await files.file('node/b.txt').getMetadata();
    expect(metadata.size).toBe('9');
    await files.file('node/a.txt').delete();
    await expect(files.file('node/a.txt').delete()).rejects.toMatchObject({
      code: 404,
      message: `No such object: ${BUCKET}/node/a.txt`,
    });
    await files.file('node/a.txt').delete({ ignoreNotFound: true });
    expect((await storage.bucket('cumulus-no-such-bucket').exists())[0]).toBe(false);
  });

  it('serves gcloud storage: multipart and resumable uploads, ls, downloads checked by hash, rm', async () => {
    const small = path.join(dir, 'small.txt');
    const big = path.join(dir, 'big.bin');
    writeFileSync(small, 'hello from gcloud\n');
    writeFileSync(
      big,
      Buffer.alloc(3 * 2 ** 20, 7).map((b, i) => (b + i * 31) & 0xff),
    );
    const uploads = rig.storage.uploads.length;
    await gcloud('storage', 'cp', small, `gs://${BUCKET}/g/small.txt`);
    // Above the resumable threshold (1 byte here): a session, then the bytes.
    const resumable = gcloudRunOf(rig, gcloudConfig, { CLOUDSDK_STORAGE_RESUMABLE_THRESHOLD: '1' });
    await resumable('storage', 'cp', big, `gs://${BUCKET}/g/big.bin`);
    expect(rig.storage.uploads.slice(uploads)).toEqual(['multipart', 'resumable']);
    expect(rig.storage.object(BUCKET, 'g/big.bin')?.data.equals(readFileSync(big))).toBe(true);

    const listed = await gcloud('storage', 'ls', '-l', `gs://${BUCKET}/g/`);
    expect(listed).toMatch(new RegExp(`${3 * 2 ** 20}\\s+\\S+\\s+gs://${BUCKET}/g/big.bin`));
    expect(listed).toMatch(new RegExp(`18\\s+\\S+\\s+gs://${BUCKET}/g/small.txt`));
    expect(await gcloud('storage', 'cat', `gs://${BUCKET}/g/small.txt`)).toBe('hello from gcloud\n');
    // gcloud checks a download against the object's hashes (its MD5 and CRC32C).
    await gcloud('storage', 'cp', `gs://${BUCKET}/g/big.bin`, path.join(dir, 'back.bin'));
    expect(readFileSync(path.join(dir, 'back.bin')).equals(readFileSync(big))).toBe(true);

    await gcloud('storage', 'rm', `gs://${BUCKET}/g/small.txt`);
    expect(rig.storage.object(BUCKET, 'g/small.txt')).toBeUndefined();
    await expect(gcloud('storage', 'ls', `gs://${BUCKET}/g/small.txt`)).rejects.toThrow(/matched no objects/);
  });

  it("takes gcloud's V4 signed URLs (sign-url's own probe too) and refuses a changed or expired one", async () => {
    const keyFile = path.join(dir, 'signer.json');
    const key = rig.tokens.createKey('signer');
    writeFileSync(keyFile, JSON.stringify(key));
    await gcloud('storage', 'cp', path.join(dir, 'back.bin'), `gs://${BUCKET}/signed/data.bin`);
    const before = rig.storage.signedRequests.length;
    const url = await signUrl('signed/data.bin', keyFile, '10m');
    // sign-url probes the link it made (a HEAD signed the same way): the rig took gcloud's signature.
    expect(rig.storage.signedRequests.slice(before)).toEqual([
      {
        method: 'HEAD',
        bucket: BUCKET,
        object: 'signed/data.bin',
        signer: key.client_email,
        status: 200,
        authorization: false,
      },
    ]);
    expect(url.startsWith(`${rig.url}/${BUCKET}/signed/data.bin?`)).toBe(true);
    const got = await fetch(url);
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer()).equals(readFileSync(path.join(dir, 'back.bin')))).toBe(true);

    const changed = await fetch(url.replace('x-goog-expires=600', 'x-goog-expires=601'));
    expect(changed.status).toBe(403);
    const refusal = await changed.text();
    expect(refusal).toContain('<Code>SignatureDoesNotMatch</Code>');
    expect(refusal).toContain('<StringToSign>GOOG4-RSA-SHA256\n');
    expect(refusal).toContain('<CanonicalRequest>GET\n/cumulus-rig-test-bucket/signed/data.bin\n');

    const short = await signUrl('signed/data.bin', keyFile, '1s');
    await new Promise((r) => setTimeout(r, 2100));
    const expired = await fetch(short);
    expect(expired.status).toBe(400);
    expect(await expired.text()).toMatch(
      /<Code>ExpiredToken<\/Code>.*<Details>Request has expired: \d+<\/Details>/,
    );
  });

  it("takes the server's V4 signed URLs: a PUT then a GET, each for its own method, not another key's or an expired one", async () => {
    const key = rig.tokens.createKey('cumulus') as { client_email: string; private_key: string };
    const link = (method: 'GET' | 'PUT', object: string, extra: { seconds?: number; now?: Date } = {}) =>
      signedUrl(key, {
        storageUrl: rig.url,
        method,
        bucket: BUCKET,
        object,
        seconds: extra.seconds ?? 600,
        ...(extra.now && { now: extra.now }),
      });
    const put = await fetch(link('PUT', 'builds/build-1.tar.gz'), {
      method: 'PUT',
      body: 'an archive',
      headers: { 'content-type': 'application/gzip' },
    });
    expect(put.status).toBe(200);
    expect(rig.storage.object(BUCKET, 'builds/build-1.tar.gz')?.resource.contentType).toBe(
      'application/gzip',
    );
    const get = await fetch(link('GET', 'builds/build-1.tar.gz'));
    expect(await get.text()).toBe('an archive');
    // gcloud reads the object the server's link wrote.
    expect(await gcloud('storage', 'cat', `gs://${BUCKET}/builds/build-1.tar.gz`)).toBe('an archive');

    // A PUT link is no GET link; a key the account never had signs nothing; a lapsed link is refused.
    expect((await fetch(link('PUT', 'builds/build-1.tar.gz'))).status).toBe(403);
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    }) as string;
    const forged = signedUrl(
      { client_email: key.client_email, private_key: stranger },
      { storageUrl: rig.url, method: 'GET', bucket: BUCKET, object: 'builds/build-1.tar.gz', seconds: 600 },
    );
    expect((await fetch(forged)).status).toBe(403);
    const lapsed = await fetch(
      link('GET', 'builds/build-1.tar.gz', { seconds: 60, now: new Date(Date.now() - 120_000) }),
    );
    expect(lapsed.status).toBe(400);
    expect(await lapsed.text()).toContain('<Code>ExpiredToken</Code>');
    const missing = await fetch(link('GET', 'builds/none.tar.gz'));
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('<Code>NoSuchKey</Code>');
    // No signature at all: anonymous.
    const anonymous = await fetch(`${rig.url}/${BUCKET}/builds/build-1.tar.gz`);
    expect(anonymous.status).toBe(403);
    expect(await anonymous.text()).toContain('<Code>AccessDenied</Code>');
  });

  it("refuses what Google's definitions do not have, calls without a token, and a permission withheld", async () => {
    const unknown = await raw('POST', `/storage/v1/b?project=${rig.project}`, {
      name: 'cumulus-x1',
      colour: 'red',
    });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).error.message).toBe(
      'Invalid JSON payload received. Unknown name "colour" at \'bucket\': Cannot find field.',
    );
    const wrongType = await raw('POST', `/storage/v1/b?project=${rig.project}`, {
      name: 'cumulus-x1',
      iamConfiguration: { uniformBucketLevelAccess: { enabled: 'yes' } },
    });
    expect((await wrongType.json()).error.message).toBe(
      `Invalid value at 'bucket.iamConfiguration.uniformBucketLevelAccess.enabled' (TYPE_BOOL), "yes"`,
    );
    const labels = await raw('POST', `/storage/v1/b?project=${rig.project}`, {
      name: 'cumulus-x1',
      labels: { a: 1 },
    });
    expect((await labels.json()).error.message).toBe(
      `Invalid value at 'bucket.labels["a"]' (TYPE_STRING), 1`,
    );
    const query = await raw('GET', `/storage/v1/b/${BUCKET}/o?colour=red`);
    expect(query.status).toBe(400);
    const badName = await raw('POST', `/storage/v1/b?project=${rig.project}`, { name: 'Not_A-Valid.Name!' });
    expect((await badName.json()).error.message).toBe("Invalid bucket name: 'Not_A-Valid.Name!'");
    expect((await raw('GET', `/storage/v1/b/${BUCKET}/o`, undefined, null)).status).toBe(401);
    expect((await raw('GET', `/storage/v1/b/${BUCKET}/o`, undefined, 'ya29.not-the-rigs')).status).toBe(401);
    expect((await raw('GET', `/storage/v1/b/${BUCKET}/nothing`)).status).toBe(404);

    rig.resourceManager.withhold(['storage.objects.create']);
    try {
      const storage = nodeStorage();
      await expect(
        storage.bucket(BUCKET).file('denied.txt').save('x', { resumable: false }),
      ).rejects.toMatchObject({
        code: 403,
        message: expect.stringContaining("Permission 'storage.objects.create' denied"),
      });
      await expect(
        gcloud('storage', 'cp', path.join(dir, 'small.txt'), `gs://${BUCKET}/denied.txt`),
      ).rejects.toThrow(/storage\.objects\.create/);
      expect(rig.storage.object(BUCKET, 'denied.txt')).toBeUndefined();
    } finally {
      rig.resourceManager.restore();
    }
    // testIamPermissions knows Cloud Storage's permissions by its definitions.
    expect(validPermission('storage.objects.create')).toBe(true);
    expect(validPermission('storage.buckets.create')).toBe(true);
    expect(validPermission('storage.objects.frobnicate')).toBe(false);
  });
});
