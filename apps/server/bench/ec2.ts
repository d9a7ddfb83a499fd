import { and, eq, isNotNull } from 'drizzle-orm';
import { clusters, instances } from '../src/db/schema/index.js';
import { reconcileCluster } from '../src/domains/clusters/reconcile/index.js';
import { createToken } from '../src/domains/identity/tokens/service.js';
import { Api } from '../test/helpers/api.js';
import { setUpAwsWorkspace } from '../test/helpers/aws-workspace.js';
import { Ec2Machines } from '../test/helpers/ec2-vms.js';
import { awsEnvironment, type Ec2Proxy, startEc2Proxy, startMoto } from '../test/helpers/moto.js';
import { freePort, waitFor } from '../test/helpers/wait.js';
import { median } from './clusters-start.js';
import { registerBenchUser, startBenchServer } from './server.js';

const RUNS = 3;
const SIZES = (process.env.CUMULUS_BENCH_EC2_SIZES ?? '10,50,100,200').split(',').map(Number);
const PASSES = 5;

/**
 * The vm_aws backend against moto's EC2 (through a proxy that counts EC2 calls):
 * 1. seconds from create to ready for 1 scheduler + 2 workers, the instances booted from their
 *    user-data by the test helper (its own time reported apart);
 * 2. how the control plane's work grows with one cluster's size, 10 to 200 instances: EC2 calls and
 *    milliseconds of a steady reconcile pass, and of the pass that launches them all. The loops are
 *    stopped and passes are run one at a time; the instances are not booted (nothing heartbeats).
 */
export async function benchEc2(): Promise<void> {
  const moto = await startMoto();
  const proxy = await startEc2Proxy(moto.url);
  try {
    await startToReady(moto, proxy);
  } finally {
    await proxy.close();
    await moto.stop();
  }
  console.log(
    '\nvm_aws control plane work by cluster size (one reconcile pass at a time; each size on a fresh moto EC2 behind a counting proxy)',
  );
  for (const size of SIZES) {
    const fresh = await startMoto();
    const counting = await startEc2Proxy(fresh.url);
    try {
      await reconcileScaling(fresh, counting, size);
    } finally {
      await counting.close();
      await fresh.stop();
    }
  }
}

async function benchUser(server: Awaited<ReturnType<typeof startBenchServer>>['server'], name: string) {
  const user = await registerBenchUser(server, name);
  const { token } = await createToken(server.deps.db, user, { label: 'bench' });
  const api = new Api(server.app).as(token);
  const slug = (await api.get('/api/v2/user/me')).body.default_account.slug as string;
  return { api, slug };
}

async function startToReady(moto: Awaited<ReturnType<typeof startMoto>>, proxy: Ec2Proxy) {
  const port = await freePort();
  // The AWS SDK reads where AWS is from the environment itself.
  const restoreEnv = awsEnvironment({ AWS_ENDPOINT_URL: proxy.url });
  const bench = await startBenchServer(
    {
      CUMULUS_PUBLIC_URL: `http://127.0.0.1:${port}`,
      CUMULUS_RECONCILE_INTERVAL_SECONDS: '1',
      CUMULUS_DEFAULT_ENVIRONMENT: 'off',
      CUMULUS_HEARTBEAT_INTERVAL_SECONDS: '2',
    },
    port,
  );
  const machines = new Ec2Machines(moto.url, moto.keys).start(100);
  const seconds: number[] = [];
  const boots: number[] = [];
  try {
    const { api, slug } = await benchUser(bench.server, 'ec2bench');
    await setUpAwsWorkspace(api, slug, proxy.url, moto.keys);
    for (let run = 0; run < RUNS; run++) {
      const bootsBefore = machines.bootMs.length;
      const started = performance.now();
      const { body } = await api.post(`/api/v2/clusters/account/${slug}/`, {
        name: `ec2-bench-${run}`,
        workers: 2,
      });
      await waitFor(
        'ready',
        async () => {
          const details = await api.get(`/api/v2/clusters/account/${slug}/id/${body.id}`);
          if (details.body.current_state.state === 'error')
            throw new Error(details.body.current_state.reason);
          return details.body.current_state.state === 'ready';
        },
        180_000,
        50,
      );
      seconds.push((performance.now() - started) / 1000);
      boots.push(machines.bootMs.slice(bootsBefore).reduce((a, b) => a + b, 0));
      await api.delete(`/api/v2/clusters/account/${slug}/id/${body.id}`);
      await waitFor(
        'stopped',
        async () =>
          (await api.get(`/api/v2/clusters/account/${slug}/id/${body.id}`)).body.current_state.state ===
          'stopped',
        120_000,
        100,
      );
    }
  } finally {
    await machines.stop();
    await bench.close();
    restoreEnv();
  }
  const s = median(seconds);
  console.log(`\nvm_aws cluster start on moto's EC2, 1 scheduler + 2 workers (median of ${RUNS})`);
  console.log(
    `  create -> ready                          ${s.toFixed(2)} s   runs: ${seconds.map((x) => x.toFixed(2)).join(', ')}`,
  );
  console.log(
    `  of which the boot helper's own work      ${(median(boots) / 1000).toFixed(2)} s   (reading user-data from EC2 and starting it, 3 instances)`,
  );
}

async function reconcileScaling(_moto: Awaited<ReturnType<typeof startMoto>>, proxy: Ec2Proxy, size: number) {
  const restoreEnv = awsEnvironment({ AWS_ENDPOINT_URL: proxy.url });
  const bench = await startBenchServer({
    CUMULUS_DEFAULT_ENVIRONMENT: 'off',
    CUMULUS_HEARTBEAT_TIMEOUT_SECONDS: '86400',
  });
  await bench.server.stopLoops();
  const { server } = bench;
  try {
    const { api, slug } = await benchUser(server, 'ec2scale');
    await setUpAwsWorkspace(api, slug, proxy.url, _moto.keys);
    const ctx = {
      db: server.deps.db,
      backends: server.deps.backends,
      secrets: server.deps.secrets,
      timings: server.deps.config.clusters,
      serverUrl: server.deps.config.publicUrl,
      log: server.app.log,
      // Heartbeats are not what this bench measures.
      servingSince: () => null,
    };
    const pass = async (id: number) => {
      proxy.resetCalls();
      const t = performance.now();
      await reconcileCluster(ctx, id).catch(() => undefined);
      const ms = performance.now() - t;
      return { ms, ec2Ms: proxy.waitedMs, calls: new Map(proxy.calls) };
    };
    const show = (calls: Map<string, number>) => [...calls].map(([k, v]) => `${v} ${k}`).join(', ') || 'none';
    {
      const { body } = await api.post(`/api/v2/clusters/account/${slug}/`, {
        name: `scale-${size}`,
        workers: size - 1,
      });
      // The first pass plans and launches every machine.
      const launch = await pass(body.id);
      const launched = await server.deps.db
        .select({ id: instances.id })
        .from(instances)
        .where(and(eq(instances.clusterId, body.id), isNotNull(instances.launchedAt)));
      const steady: { ms: number; ec2Ms: number; calls: Map<string, number> }[] = [];
      for (let i = 0; i < PASSES; i++) steady.push(await pass(body.id));
      const ms = median(steady.map((p) => p.ms));
      console.log(
        `  ${String(size).padStart(4)} instances  steady pass ${ms.toFixed(0).padStart(5)} ms (EC2 answering ${median(steady.map((p) => p.ec2Ms)).toFixed(0)} ms), EC2: ${show(steady.at(-1)!.calls)}` +
          `  | launch pass ${launch.ms.toFixed(0)} ms (${launched.length} launched), EC2: ${show(launch.calls)}`,
      );
      await api.delete(`/api/v2/clusters/account/${slug}/id/${body.id}`);
      const stop = await pass(body.id);
      console.log(`${' '.repeat(19)}stop pass ${stop.ms.toFixed(0)} ms, EC2: ${show(stop.calls)}`);
      for (let i = 0; i < 20; i++) {
        const [row] = await server.deps.db
          .select({ state: clusters.state })
          .from(clusters)
          .where(eq(clusters.id, body.id));
        if (row?.state === 'stopped') break;
        await pass(body.id);
      }
    }
  } finally {
    await bench.close();
    restoreEnv();
  }
}
