import { existsSync } from 'node:fs';
import { createToken } from '../src/domains/identity/tokens/service.js';
import { registerBenchUser, startBenchServer } from './server.js';

const LOCAL_INDEX = '/opt/pypi/simple';
/** Small packages this machine's local index has and Debian's Python does not. */
const TWENTY = [
  'absl-py',
  'aenum',
  'anytree',
  'alabaster',
  'annotated-types',
  'arrow',
  'asttokens',
  'backoff',
  'cachetools',
  'distlib',
  'executing',
  'filelock',
  'humanize',
  'itsdangerous',
  'jmespath',
  'pure-eval',
  'tabulate',
  'termcolor',
  'tenacity',
  'texttable',
];
const SCAN_SIZE = 300;
const APPROXIMATIONS = 200;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/**
 * Software builds on the local backend: seconds from creating a spec to its build being `built`
 * (a no-op environment, 20 packages from the local index, the same spec again), and the latency
 * of approximate-packages for a 300-package scan.
 */
export async function benchSoftware(): Promise<void> {
  const hasIndex = existsSync(LOCAL_INDEX);
  const bench = await startBenchServer(hasIndex ? { CUMULUS_PIP_INDEX_URL: `file://${LOCAL_INDEX}` } : {});
  try {
    const user = await registerBenchUser(bench.server, 'softwarebench');
    const { token } = await createToken(bench.server.deps.db, user, { label: 'bench' });
    const headers = { authorization: `ApiToken ${token}`, 'content-type': 'application/json' };
    /** The few fields read here: default_account, latest_spec, state, reason, packages, times. */
    // biome-ignore lint/suspicious/noExplicitAny: JSON answers, read field by field
    type Answer = Record<string, any>;
    const call = async (method: string, path: string, body?: unknown): Promise<Answer> => {
      const res = await fetch(`${bench.base}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return (await res.json()) as Answer;
    };
    const slug = (await call('GET', '/api/v2/user/me')).default_account.slug as string;
    const base = `/api/v2/software-environment/account/${slug}`;

    const build = async (body: Record<string, unknown>) => {
      const started = performance.now();
      const created = await call('POST', base, body);
      const id = created.latest_spec?.latest_build?.id;
      if (!id) throw new Error(`create failed: ${JSON.stringify(created)}`);
      for (;;) {
        const answer = await call('GET', `${base}/build/${id}`);
        if (answer.state === 'built' || answer.state === 'error') {
          if (answer.state === 'error') throw new Error(`build ${id} failed: ${answer.reason}`);
          const at = (field: string) => (answer[field] ? Date.parse(answer[field]) : Number.NaN);
          return {
            seconds: (performance.now() - started) / 1000,
            packages: answer.packages?.length ?? 0,
            // Queued until the build loop took it, then building.
            waited: (at('started') - at('created')) / 1000,
            built: (at('ended') - at('started')) / 1000,
          };
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    };

    console.log('\nsoftware builds (local backend, create -> built)');
    const noop = await build({ name: 'bench-noop', raw_pip: ['# nothing to install'] });
    const parts = (b: { waited: number; built: number }) =>
      Number.isNaN(b.built) ? '' : ` (queued ${b.waited.toFixed(2)} s, building ${b.built.toFixed(2)} s)`;
    console.log(`  no-op environment                   ${noop.seconds.toFixed(2)} s${parts(noop)}`);
    if (hasIndex) {
      const twenty = await build({ name: 'bench-twenty', raw_pip: TWENTY });
      console.log(
        `  20 packages from ${LOCAL_INDEX}  ${twenty.seconds.toFixed(2)} s${parts(twenty)}, ${twenty.packages} installed`,
      );
      const again = await build({ name: 'bench-twenty', raw_pip: TWENTY });
      console.log(`  the same spec again                 ${again.seconds.toFixed(2)} s   (no rebuild)`);
    } else {
      console.log(`  20 packages: skipped (no local index at ${LOCAL_INDEX})`);
    }

    const scan = Array.from({ length: SCAN_SIZE }, (_, i) => ({
      name: i < TWENTY.length ? TWENTY[i] : `bench-package-${i}`,
      version: '1.0.0',
      source: 'pip',
    }));
    const times: number[] = [];
    for (let i = 0; i < APPROXIMATIONS; i++) {
      const started = performance.now();
      await call('POST', '/api/v2/software-environment/approximate-packages', { packages: scan });
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    console.log(
      `  approximate-packages, ${SCAN_SIZE}-package scan  p50 ${percentile(times, 50).toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms (${APPROXIMATIONS} calls)`,
    );
  } finally {
    await bench.close();
  }
}
