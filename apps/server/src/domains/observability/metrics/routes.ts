import type { Deps } from '../../../deps.js';
import type { App } from '../../../http/app-types.js';
import { Signer } from '../../../lib/crypto.js';
import { clusterOf } from '../../clusters/index.js';
import { workspaceOf } from '../../identity/index.js';
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
const user = { auth: 'user', cluster: 'read' } as const;
const base = '/api/v2/metrics/account/:account';
const NAMES =
  'Metrics: `workers` (started workers), `instances` (running instances by role), `log_lines` ' +
  '(lines per minute by instance), `heartbeat_age` (seconds since each instance phoned home).';

export function registerMetricRoutes(app: App, deps: Deps): void {
  const { db } = deps;
  const signer = new Signer(deps.config.secret, 'metrics-link-v1');

  app.get(
    `${base}/cluster/:pk`,
    {
      // No credentials needed with a signed link (`metrics_url` of summary-metrics); readers may
      // also call it with theirs.
      config: { auth: 'optional', cluster: 'read-or-signed' },
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
      if (request.access.cluster) return metricSeries(db, request.access.cluster.cluster, request.query);
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
    async (request) => metricValue(db, clusterOf(request).cluster, request.query),
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
    async (request) => debugStuff(db, clusterOf(request).cluster, request.query.set_tags ?? false),
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
      const { access, cluster: c } = clusterOf(request);
      const url = signedMetricsUrl(signer, deps.config.publicUrl, access.workspace.slug, c);
      return summaryMetrics(db, c, url);
    },
  );

  app.get(
    `${base}/adhoc`,
    {
      config: { auth: 'user', workspace: 'read' },
      schema: {
        tags,
        description: `One value of a metric per cluster of the workspace: the \`clusters\` named (ids) or the \`n_clusters\` newest. ${NAMES}`,
        params: workspaceParams,
        querystring: adhocQuery,
        response: { 200: adhocAnswer },
      },
    },
    async (request) => {
      return adhocMetric(db, workspaceOf(request).workspace.id, request.query);
    },
  );
}
