import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUserBy } from '../src/domains/identity/auth/service.js';
import { createToken } from '../src/domains/identity/tokens/service.js';
import { type AwsRig, openAwsRig } from './helpers/aws-rig.js';
import { PYTHON } from './helpers/clusters.js';

/**
 * `credentials="local"` on vm_aws: the product's Python client turns the user's long-term keys
 * into STS session credentials and forwards them to the scheduler of a cluster whose machines the
 * EC2 rig booted; a worker there reads an object from a moto S3 bucket with them, and before they
 * expire the client forwards fresh ones, which the worker then has.
 *
 * moto's STS answers the same session token every time and credentials that last as long as they
 * were asked for (12 hours): the STS here is moto behind a proxy that numbers each token and
 * answers an expiry 40 s away, so a refresh shows and comes within the test.
 */
const home = mkdtempSync(path.join(tmpdir(), 'cumulus-ec2-creds-'));
const BUCKET = 'cumulus-vm-credentials';
const KEY = 'greeting.txt';
const CONTENT = 'hello from S3, read on an EC2 worker';
const LONG_TERM = {
  AWS_ACCESS_KEY_ID: 'AKIALONGTERMUSERKEY',
  AWS_SECRET_ACCESS_KEY: 'long-term-user-secret',
};
const LIFETIME_MS = 40_000;
let rig: AwsRig;
let sts: { server: Server; url: string; issued: { token: string; expires: Date; at: Date }[] };

/** moto's STS, each GetSessionToken answer numbered and expiring LIFETIME_MS from now. */
async function shortLivedSts(moto: string) {
  const issued: { token: string; expires: Date; at: Date }[] = [];
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const upstream = await fetch(`${moto}${request.url}`, {
      method: request.method ?? 'POST',
      headers: Object.fromEntries(
        Object.entries(request.headers).filter(
          ([k, v]) => typeof v === 'string' && !['host', 'content-length', 'connection'].includes(k),
        ),
      ) as Record<string, string>,
      body: Buffer.concat(chunks),
    });
    let text = await upstream.text();
    if (text.includes('<SessionToken>')) {
      const expires = new Date(Date.now() + LIFETIME_MS);
      const token = `session-token-${issued.length + 1}`;
      issued.push({ token, expires, at: new Date() });
      text = text
        .replace(/<SessionToken>[^<]*<\/SessionToken>/, `<SessionToken>${token}</SessionToken>`)
        .replace(/<Expiration>[^<]*<\/Expiration>/, `<Expiration>${expires.toISOString()}</Expiration>`);
    }
    response.writeHead(upstream.status, {
      'content-type': upstream.headers.get('content-type') ?? 'text/xml',
    });
    response.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };
  return { server, url: `http://127.0.0.1:${port}`, issued };
}

beforeAll(async () => {
  rig = await openAwsRig();
  sts = await shortLivedSts(rig.moto.url);
  // moto (without auth) takes unsigned calls: the bucket and its object.
  expect((await fetch(`${rig.moto.url}/${BUCKET}`, { method: 'PUT' })).status).toBe(200);
  const put = await fetch(`${rig.moto.url}/${BUCKET}/${KEY}`, {
    method: 'PUT',
    headers: { 'content-type': 'text/plain' },
    body: CONTENT,
  });
  expect(put.status).toBe(200);
}, 600_000); // may wait for another file's VMs (Ec2Machines.open)

afterAll(async () => {
  await rig?.close();
  await new Promise<void>((resolve) => (sts?.server ? sts.server.close(() => resolve()) : resolve()));
  rmSync(home, { recursive: true, force: true });
});

/** Runs on the user's machine: a cluster with their credentials, read on a worker before and after a refresh. */
const CLIENT = `
import json, os, sys, time
import cumulus
from distributed import Client

URL = sys.argv[1]

def read_object(url):
    import os, urllib.request
    from cumulus.aws_credentials import sign
    headers = sign("GET", url, region=os.environ["AWS_DEFAULT_REGION"], service="s3",
                   access_key=os.environ["AWS_ACCESS_KEY_ID"], secret_key=os.environ["AWS_SECRET_ACCESS_KEY"],
                   session_token=os.environ.get("AWS_SESSION_TOKEN"), sign_payload=True)
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=10) as res:
        return {"body": res.read().decode(), "token": os.environ.get("AWS_SESSION_TOKEN"),
                "key": os.environ["AWS_ACCESS_KEY_ID"], "prefix": sys.prefix,
                "instance": os.environ.get("CUMULUS_BACKEND_ID")}

def token():
    import os
    return os.environ.get("AWS_SESSION_TOKEN")

with cumulus.Cluster(name="credentials-on-ec2", n_workers=1, timeout=300, credentials="local",
                     environ={"AWS_ENDPOINT_URL": os.environ["AWS_ENDPOINT_URL_S3"]}) as cluster, Client(cluster) as client:
    client.wait_for_workers(1, timeout=120)
    first = client.submit(read_object, URL, pure=False).result(timeout=60)
    print(json.dumps({"first": first}), flush=True)
    deadline = time.time() + 90
    while set(client.run(token).values()) == {first["token"]} and time.time() < deadline:
        time.sleep(0.25)
    refreshed_at = time.time()
    second = client.submit(read_object, URL, pure=False).result(timeout=60)
    print(json.dumps({"second": second, "refreshed_at": refreshed_at}), flush=True)
`;

describe('credentials="local" on vm_aws', () => {
  it("a worker on an EC2 machine reads S3 with the user's forwarded session credentials, refreshed before they expire", async () => {
    const owner = (await findUserBy(rig.database.db, 'id', rig.userId))!;
    const { token } = await createToken(rig.database.db, owner, { label: 'python-client' });
    const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(
        PYTHON,
        ['-c', CLIENT, `${rig.moto.url}/${BUCKET}/${KEY}`],
        {
          timeout: 480_000,
          env: {
            PATH: process.env.PATH ?? '/usr/bin:/bin',
            HOME: home,
            PYTHONPATH: path.resolve(import.meta.dirname, '../../../python'),
            // The server shares two cores with other test files: an answer may take longer than 6 s.
            CUMULUS_REQUEST_TIMEOUT: '30',
            CUMULUS_SERVER: rig.ts.url,
            CUMULUS_API_TOKEN: token,
            ...LONG_TERM,
            AWS_DEFAULT_REGION: 'eu-west-1',
            AWS_ENDPOINT_URL_STS: sts.url,
            AWS_ENDPOINT_URL_S3: rig.moto.url,
          },
        },
        (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
      ),
    );
    expect(
      run.stderr.split('\n').filter((l) => /Error|Traceback|not forwarded/.test(l)),
      `the client's stderr:\n${run.stderr.slice(-4000)}`,
    ).toEqual([]);
    expect(run.code).toBe(0);
    const lines = run.stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l));
    const { first } = lines.find((l) => l.first)!;
    const { second, refreshed_at: refreshedAt } = lines.find((l) => l.second)!;

    // The worker ran on a machine the rig booted from EC2's user-data, and read the object with
    // the session credentials STS issued, never the user's long-term keys.
    expect(rig.machines.booted.size).toBeGreaterThanOrEqual(2);
    expect([...rig.machines.booted.values()].map((b) => b.backendId)).toContain(first.instance);
    expect(first.body).toBe(CONTENT);
    expect(first.token).toBe('session-token-1');
    expect(first.key).not.toBe(LONG_TERM.AWS_ACCESS_KEY_ID);

    // Before those expired, the client asked STS again and the worker had the new ones.
    expect(sts.issued.length).toBeGreaterThanOrEqual(2);
    const [issued1, issued2] = sts.issued;
    expect(issued2!.at.getTime()).toBeLessThan(issued1!.expires.getTime());
    expect(refreshedAt * 1000).toBeLessThan(issued1!.expires.getTime());
    expect(second.token).toBe('session-token-2');
    expect(second.body).toBe(CONTENT);
  }, 600_000);
});
