// biome-ignore-all assist/source/organizeImports: a domain's face reads by topic, not by file.
// batch: batch jobs (the console's Batch Jobs), their tasks, and the loop that runs them on
// clusters. Above clusters: a job attaches to its cluster through what clusters export.
// Other domains import this file only.

// Its face to the assembly: routes (the jobs API, and what instances of batch clusters call about
// their tasks), the job loop, access to a job, its tables.
export { batchModule } from './module.js';

// Access to a job, resolved once per request by the pre-handler (http/access.ts).
export type { JobAccess, JobRequirement } from './access.js';
export { jobOf } from './access.js';

// What clusters ask of batch (their ClusterPorts, handed in by server.ts).
export { attachJobs } from './attach.js';
export { batchSetup } from './setup.js';

// Read model: how other domains read batch's tables.
export { jobClusterView } from './read-model.js';
