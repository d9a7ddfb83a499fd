import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CONNECT, runPython } from './clusters.js';
import { waitFor } from './wait.js';

/**
 * A client (after CONNECT: `address`, `sec`; run with the details file and a directory) that
 * persists 16 parts over the workers (each run counted in `dir/runs`), writes which workers hold
 * them (`dir/persisted`), waits for the test's go (`dir/go`), then sums them: `{sum, runs}`. A
 * worker retired meanwhile must hand its parts on: `runs` stays 16.
 */
const HOLD_AND_SUM = `${CONNECT}
import time
import numpy as np
from dask import delayed
from distributed import wait
out = sys.argv[2]
counter = os.path.join(out, "runs")
def part(i, counter=counter):
    with open(counter, "a") as f:
        f.write("run\\n")
    return np.full(1000, float(i))
with Client(address, security=sec, timeout=60) as client:
    client.wait_for_workers(2, timeout=120)
    parts = client.persist([delayed(part)(i, pure=False) for i in range(16)])
    wait(parts)
    holders = sorted({w for ws in client.who_has(parts).values() for w in ws})
    open(os.path.join(out, "persisted"), "w").write(json.dumps(holders))
    while not os.path.exists(os.path.join(out, "go")):
        time.sleep(0.2)
    total = client.compute(delayed(sum)([delayed(np.sum)(p) for p in parts])).result()
    print(json.dumps({"sum": float(total), "runs": len(open(counter).read().split())}))
`;

/**
 * Starts HOLD_AND_SUM against the cluster of these details and waits until the workers hold the
 * data (`holders`: the workers holding it); `sum()` gives the go and answers `{sum, runs}`.
 */
export async function holdAndSum(details: unknown): Promise<{ holders: string[]; sum(): Promise<unknown> }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'hold-and-sum-'));
  writeFileSync(path.join(dir, 'details.json'), JSON.stringify(details));
  const computed = runPython(HOLD_AND_SUM, [path.join(dir, 'details.json'), dir], 240_000);
  // Awaited in sum(): should a step before it fail, the test reports that step, not a stray rejection.
  computed.catch(() => undefined);
  const persisted = path.join(dir, 'persisted');
  const holders = await waitFor('the data held by the workers', async () =>
    existsSync(persisted) ? (JSON.parse(readFileSync(persisted, 'utf8')) as string[]) : false,
  );
  return {
    holders,
    async sum() {
      writeFileSync(path.join(dir, 'go'), '');
      try {
        return JSON.parse(await computed);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
