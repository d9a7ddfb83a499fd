import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:http';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { containerRunScript } from '../src/compute/aws/container-script.js';

/**
 * The part of an instance's user-data that runs its agent in the image (aws/container-script.ts),
 * run by bash here on a machine without podman or docker: it fails saying so, where the SSH
 * backend reads it (`$WORK/failed`) and in its output (a Slurm job's, a VM's console).
 */
const dir = mkdtempSync(path.join(tmpdir(), 'cumulus-container-script-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the container part of the user-data', () => {
  it('fails, naming the host, where neither podman nor docker is installed, and tells the control plane', async () => {
    // The control plane's phone-home, as the instance's token reaches it.
    const heard: { auth?: string; path?: string; body?: unknown }[] = [];
    const server = createServer((req, res) => {
      let text = '';
      req.on('data', (c: Buffer) => (text += c.toString()));
      req.on('end', () => {
        heard.push({
          auth: req.headers.authorization,
          path: `${req.method} ${req.url}`,
          body: JSON.parse(text),
        });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const bin = path.join(dir, 'bin');
    const work = path.join(dir, 'work');
    mkdirSync(bin);
    mkdirSync(work);
    // What it needs before it looks for an engine, and nothing else.
    for (const tool of ['hostname', 'id']) symlinkSync(`/usr/bin/${tool}`, path.join(bin, tool));
    const script = `set -eu\nWORK=${work}\nPYTHON=/usr/bin/python3\n${containerRunScript({
      reference: 'registry.example.com/team/stack:1',
      image: 'abc',
      useEntrypoint: true,
    })}`;
    const env = {
      PATH: bin,
      CUMULUS_SERVER: url,
      CUMULUS_CLUSTER_TOKEN: 'cluster-token',
      CUMULUS_BACKEND_ID: 'vm-1',
    };
    const ran = await new Promise<{ status: number; stderr: string }>((resolve) =>
      execFile('/bin/bash', ['-c', script], { env }, (err, _out, stderr) =>
        resolve({ status: err ? Number(err.code ?? 1) : 0, stderr }),
      ),
    );
    server.close();
    const reason = `Container environments need podman or docker on host ${hostname()}: neither is installed`;
    expect(ran.status).toBe(1);
    expect(ran.stderr).toContain(`cumulus: ${reason}`);
    expect(readFileSync(path.join(work, 'failed'), 'utf8').trim()).toBe(reason);
    expect(heard).toEqual([
      {
        auth: 'Bearer cluster-token',
        path: 'PATCH /api/v2/cluster_facing/instance/phone-home/',
        body: { backend_id: 'vm-1', state: 'error', reason },
      },
    ]);
  });
});
