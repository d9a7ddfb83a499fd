import type { Deps } from '../../../deps.js';
import type { App } from '../../../http/app-types.js';
import { currentUser } from '../../../http/auth.js';
import { Signer } from '../../../lib/crypto.js';
import { workspaceAccess } from '../../identity/index.js';
import { clusterAccess } from '../access.js';
import {
  adhocAnswer,
  adhocQuery,
  clusterParams,
  debugAnswer,
  debugQuery,
  seriesAnswer,
  seriesQuery,
  summaryAnswer,
  valueAnswer,
  valueQuery,
  workspaceParams,
} from './schemas.js';
import {
  adhocMetric,
  clusterBySlug,
  debugStuff,
  metricSeries,
  metricValue,
  summaryMetrics,
} from './service.js';
import { assertSigned, signedMetricsUrl } from './signing.js';

const tags = ['metrics'];
const user = { auth: 'user' } as const;
const base = '/api/v2/metrics/account/:account';
const NAMES =
  'Metrics: `workers` (started workers), `instances` (running instances by role), `log_lines` ' +
  '(lines per minute by instance), `heartbeat_age` (seconds since each instance phoned home).';

export function registerMetricRoutes(app: App, deps: Deps): void {
  const { db } = deps;
  const signer = new Signer(deps.config.secret, 'metrics-link-v1');
  const cluster = (request: Parameters<typeof currentUser>[0], slug: string, pk: number) =>
    clusterAccess(db, currentUser(request), slug, pk).then((a) => a.cluster);

  app.get(
    `${base}/cluster/:pk`,
    {
      // No credentials needed with a signed link (`metrics_url` of summary-metrics); readers may
      // also call it with theirs.
      config: { auth: 'optional' },
      schema: {
        tags,
        description: `A metric's series over a window (start, end: epoch seconds or ISO). ${NAMES} Without credentials only a signed link (\`expires\`, \`signature\`) is answered.`,
        params: clusterParams,
        querystring: seriesQuery,
        response: { 200: seriesAnswer },
      },
    },
    async (request) => {
      const { account, pk } = request.params;
      if (request.user) return metricSeries(db, await cluster(request, account, pk), request.query);
      assertSigned(signer, account, pk, request.query);
      return metricSeries(db, await clusterBySlug(db, account, pk), request.query);
    },
  );

  app.get(
    `${base}/cluster/:pk/value`,
    {
      config: user,
      schema: {
        tags,
        description: `A metric reduced to one number over the window (\`over_time\`: max, min, avg, sum, last). ${NAMES}`,
        params: clusterParams,
        querystring: valueQuery,
        response: { 200: valueAnswer },
      },
    },
    async (request) =>
      metricValue(db, await cluster(request, request.params.account, request.params.pk), request.query),
  );

  app.get(
    `${base}/cluster/:pk/debug-stuff`,
    {
      config: user,
      schema: {
        tags,
        description:
          'What the control loop sees of the cluster: states, leases, instances with heartbeat ages ' +
          'and log counts. `set_tags` adds the cluster tags.',
        params: clusterParams,
        querystring: debugQuery,
        response: { 200: debugAnswer },
      },
    },
    async (request) =>
      debugStuff(
        db,
        await cluster(request, request.params.account, request.params.pk),
        request.query.set_tags ?? false,
      ),
  );

  app.get(
    `${base}/id/:pk/summary-metrics`,
    {
      config: user,
      schema: {
        tags,
        description: "The cluster's life in numbers, and a signed link to its series valid for an hour.",
        params: clusterParams,
        response: { 200: summaryAnswer },
      },
    },
    async (request) => {
      const { access, cluster: c } = await clusterAccess(
        db,
        currentUser(request),
        request.params.account,
        request.params.pk,
      );
      const url = signedMetricsUrl(signer, deps.config.publicUrl, access.workspace.slug, c);
      return summaryMetrics(db, c, url);
    },
  );

  app.get(
    `${base}/adhoc`,
    {
      config: user,
      schema: {
        tags,
        description: `One value of a metric per cluster of the workspace: the \`clusters\` named (ids) or the \`n_clusters\` newest. ${NAMES}`,
        params: workspaceParams,
        querystring: adhocQuery,
        response: { 200: adhocAnswer },
      },
    },
    async (request) => {
      const access = await workspaceAccess(db, currentUser(request), request.params.account);
      return adhocMetric(db, access.workspace.id, request.query);
    },
  );
}
