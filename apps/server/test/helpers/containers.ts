import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { REPOSITORY_DIR } from '../../src/paths.js';
import type { Api } from './api.js';
import { runAgainst } from './clusters.js';
import { waitFor } from './wait.js';

const run = promisify(execFile);

/**
 * The tests' images in this machine's podman (scripts/container-images.sh: made once, about a
 * minute; at once when they exist). Every test that runs one calls this first: test files run in
 * no fixed order, so none may count on another having made them.
 */
export async function testImages(): Promise<void> {
  await run('bash', [path.join(REPOSITORY_DIR, 'scripts/container-images.sh')], { timeout: 900_000 });
}

/** Creates a container environment and waits until its build has ended; answers the build. */
export async function buildOfContainer(
  api: Api,
  slug: string,
  name: string,
  container: string,
  useEntrypoint = true,
) {
  const base = `/api/v2/software-environment/account/${slug}`;
  const created = await api.post(base, { name, container, use_entrypoint: useEntrypoint });
  expect(created.status, created.text).toBe(201);
  const buildId = created.body.latest_spec.latest_build.id as number;
  return waitFor(
    `build ${buildId}`,
    async () => {
      const res = await api.get(`${base}/build/${buildId}`);
      return ['built', 'error'].includes(res.body.state) && res.body;
    },
    300_000,
    500,
  );
}

/** Two registries on loopback serving the base image (scripts/container-registry.sh). */
export interface TestRegistries {
  public: string;
  private: string;
  username: string;
  password: string;
  /** podman's registries.conf listing both as insecure (plain HTTP). */
  registries_conf: string;
  pids: number[];
  /** Where their files are (the caller removes it). */
  dir: string;
}

export async function startTestRegistries(): Promise<TestRegistries> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cumulus-registry-'));
  const { stdout } = await run('bash', [path.join(REPOSITORY_DIR, 'scripts/container-registry.sh'), dir], {
    timeout: 900_000,
  });
  return { ...JSON.parse(stdout.trim().split('\n').at(-1) ?? ''), dir };
}

/** Where a Dask process runs: the test image its marker names, its uid, its interpreter. */
export interface WhereInImage {
  image: string;
  uid: number;
  python: string;
}

/**
 * Asks a ready cluster where its scheduler and a worker task run (the test image's marker file,
 * /etc/cumulus-test-image, exists in the image alone) and sums on it.
 */
export function whereInImage(details: unknown) {
  return runAgainst<{ scheduler: WhereInImage; worker: WhereInImage; sum: number }>(
    details,
    `
def where():
    import os, sys
    return {"image": open("/etc/cumulus-test-image").read().strip(), "uid": os.getuid(), "python": sys.executable}
with Client(address, security=sec, timeout=60) as client:
    on_scheduler = client.run_on_scheduler(where)
    on_worker = client.submit(where, pure=False).result()
    total = client.submit(sum, range(1001)).result()
    print(json.dumps({"scheduler": on_scheduler, "worker": on_worker, "sum": total}))
`,
    180_000,
  );
}
