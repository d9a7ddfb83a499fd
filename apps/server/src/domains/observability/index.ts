// observability: what is seen of a running cluster without Dask's dashboard. `metrics` (host
// samples and Dask gauges averaged per step, the series, values and summaries the Metrics tab and
// `cumulus` read, signed links to them) and `analytics` (what a scheduler's preload reports:
// schedulers, computations and their task groups, exceptions, spans, profiles; the `analytics/*`
// calls Coiled's client makes). Above clusters, which it reads through clusters' face (its read
// model); nothing below imports it. Other domains import this file only.

export { pruneHostMetrics } from './analytics/reports.js';
// Its face to the assembly: routes, the host metrics' pruning, its tables.
export { observabilityModule } from './module.js';
