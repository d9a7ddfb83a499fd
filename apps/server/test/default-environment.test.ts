import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReadyCluster, runPython, useClusterServer, waitFor } from './helpers/clusters.js';
import { makeWheel } from './helpers/wheels.js';

/**
 * Clusters created without an environment run on the workspace's default one (Dask from the
 * interpreter plus the bokeh its dashboard needs) once it is built, and on the interpreter itself
 * until then or when it cannot be built. The package index here is a directory the test fills.
 */
const scratch = mkdtempSync(path.join(tmpdir(), 'cumulus-default-env-'));
// Builds run as a uid of their own: the index is readable to them, as a machine's index would be.
chmodSync(scratch, 0o755);
const index = path.join(scratch, 'simple');
mkdirSync(index, { recursive: true });
const c = useClusterServer({
  CUMULUS_DEFAULT_ENVIRONMENT: 'on',
  CUMULUS_PIP_INDEX_URL: `file://${index}`,
  PIP_FIND_LINKS: scratch,
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let requirement: string;
beforeAll(async () => {
  // What this interpreter's Dask asks for (empty when it can already serve its dashboard).
  requirement = (
    await runPython(`
try:
    import distributed.dashboard.core
    print("")
except ImportError:
    from distributed import versions as v
    low, high = getattr(v, "MIN_BOKEH_VERSION", None), getattr(v, "MAX_BOKEH_VERSION", None)
    print("bokeh" + ",".join(([f">={low}"] if low else []) + ([f"<={high}"] if high else [])))`)
  ).trim();
});

const software = () => `/api/v2/software-environment/account/${c.slug}`;
const details = async (id: number) => (await c.api.get(`/api/v2/clusters/account/${c.slug}/id/${id}`)).body;

async function defaultBuild() {
  const alias = await c.api.get(`${software()}/alias/name/cumulus-default`);
  expect(alias.status).toBe(200);
  const buildId = alias.body.latest_spec.latest_build.id as number;
  return waitFor(
    'the default environment to build',
    async () => {
      const build = (await c.api.get(`${software()}/build/${buildId}`)).body;
      return ['built', 'error'].includes(build.state) && build;
    },
    180_000,
    300,
  );
}

// Real builds and clusters on a busy two-core machine.
const CLUSTER_TEST_MS = 240_000;

describe('the default environment', () => {
  it(
    'is made at the first cluster, which runs on the interpreter meanwhile; without the bokeh it is built without the dashboard, calmly',
    async (ctx) => {
      if (!requirement) ctx.skip(); // this interpreter serves the dashboard already: nothing to build
      const first = await createReadyCluster(c.api, c.slug, { name: 'first', workers: 0 });
      expect(first.senv_alias).toBeNull();
      // No index has the bokeh: the environment is built without it, and says so in one line.
      const built = await defaultBuild();
      const note =
        `The Dask dashboard needs ${requirement}, which the package index does not have: ` +
        'cumulus-default is built without it, and its clusters run without the dashboard.';
      expect(built).toMatchObject({ state: 'built', reason: note });
      const logs = await c.api.get(`${software()}/build/logs/${built.id}`);
      expect(JSON.stringify(logs.body)).toContain(note);
      const alias = (await c.api.get(`${software()}/alias/name/cumulus-default`)).body;
      expect(alias.latest_spec.raw_pip).toEqual([requirement]);
      // The Software list shows it built, not a red Error.
      const listed = await c.api.get('/api/v2/software-environment/alias', {
        query: { account: c.slug, name: 'cumulus-default' },
      });
      expect(listed.body.items.map((a: any) => a.status)).toEqual(['built']);

      const second = await createReadyCluster(c.api, c.slug, { name: 'second', workers: 0 });
      expect(second.senv_alias).toEqual({ name: 'cumulus-default' });
      expect(second.scheduler.dashboard_address).toBeNull();
      expect((await c.api.get(`${software()}/alias/id/${alias.id}/builds`)).body.count).toBe(1);
    },
    CLUSTER_TEST_MS,
  );

  it(
    'once built, is what new clusters run on',
    async (ctx) => {
      if (!requirement) ctx.skip();
      // An index that has a bokeh of the version asked for (a stand-in package: it is not the real one).
      const version = /<=([\d.]+)/.exec(requirement)?.[1] ?? /[>=]=([\d.]+)/.exec(requirement)![1]!;
      const wheel = await makeWheel(scratch, 'bokeh', version, 'stand-in');
      mkdirSync(path.join(index, 'bokeh'), { recursive: true });
      copyFileSync(wheel.file, path.join(index, 'bokeh', wheel.fileName));
      writeFileSync(
        path.join(index, 'bokeh', 'index.html'),
        `<a href="${wheel.fileName}">${wheel.fileName}</a>\n`,
      );

      const rebuilt = await c.api.post(software(), {
        name: 'cumulus-default',
        raw_pip: [requirement],
        force_rebuild: true,
      });
      expect(rebuilt.status).toBe(201);
      const built = await defaultBuild();
      expect(built).toMatchObject({ state: 'built', reason: '' });

      const third = await createReadyCluster(c.api, c.slug, { name: 'third', workers: 1 });
      expect(third.senv_alias).toEqual({ name: 'cumulus-default' });
      // The stand-in bokeh is no dashboard: the scheduler says so and no link is given.
      expect((await details(third.id)).scheduler.dashboard_address).toBeNull();
      // A cluster that names an environment runs on that one, not the default.
      const named = await c.api.post(`/api/v2/clusters/account/${c.slug}/`, {
        name: 'named',
        workers: 0,
        env_name: 'cumulus-default',
      });
      expect(named.status).toBe(201);
    },
    CLUSTER_TEST_MS,
  );
});
