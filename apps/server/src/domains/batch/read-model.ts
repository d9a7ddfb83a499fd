import { QueryBuilder } from 'drizzle-orm/pg-core';
import { batchJobs } from '../../db/schema/index.js';

// How other domains read the batch domain's tables: this view, inside their own queries.

const qb = new QueryBuilder();

/** Which cluster each batch job runs on (null: none yet): a cluster that has one is a batch cluster. */
export const jobClusterView = qb
  .select({ jobId: batchJobs.id, clusterId: batchJobs.clusterId })
  .from(batchJobs)
  .as('job_cluster_view');
