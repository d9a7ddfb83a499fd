import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { runTasks } from '../../db/schema/index.js';
import type { App } from '../../http/app-types.js';
import { ApiError, badRequest, notFound } from '../../http/errors.js';
import { inflateJson } from '../../http/inflate.js';
import { parseFields } from '../../http/validate.js';
import { z } from '../../http/zod.js';
import type { ClusterDeps } from '../clusters/index.js';
import { clusterOf, outputFiles } from '../clusters/index.js';
import { scopeOf, workspaceOf } from '../identity/index.js';
import { jobOf, submittedTo } from './access.js';
import { outputPath } from './output.js';
import { jobDetailsFor, jobsOfCluster, listJobs } from './queries.js';
import {
  clusterJob,
  createdJob,
  createdSingleJob,
  jobClusterParams,
  jobDetails,
  jobList,
  jobListQuery,
  jobParams,
  jobSpec,
  outputFilesAnswer,
  singleJobBody,
  taskOutputParams,
} from './schemas.js';
import { cancelJob, createJob, createSingleJob } from './service.js';

const tags = ['jobs'];
/** Submitting: members of the spec's `workspace`, else of the submitter's default workspace. */
const submitter = { auth: 'user', workspace: { key: submittedTo } } as const;
/** Readers of the workspace of the path's job. */
const ofJob = { auth: 'user', job: 'read' } as const;

const workspaceQuery = (request: FastifyRequest) => {
  const slug = (request.query as { workspace?: string }).workspace;
  return slug ? { slug } : null;
};

/** The gzip-compressed job spec of `jobs/compressed`, read and checked as `jobs/` checks its body. */
function readCompressedSpec(body: unknown): z.infer<typeof jobSpec> {
  if (!Buffer.isBuffer(body) || body.length === 0)
    throw badRequest('Send the job spec gzip-compressed.', 'PARSE_ERROR');
  if (body.length > MAX_COMPRESSED_JOB_BYTES)
    throw new ApiError(413, {
      detail: `The compressed job spec is ${(body.length / 2 ** 20).toFixed(1)} MB; at most 2.4 MB is accepted. Put large files in a filestore instead.`,
      code: 'JOB_TOO_LARGE',
    });
  return parseFields(jobSpec, inflateJson(body));
}
const base = '/api/v2/jobs';
/** What established clients refuse to send compressed; the server holds the same line. */
export const MAX_COMPRESSED_JOB_BYTES = 2.4 * 1024 * 1024;

export function registerJobRoutes(app: App, deps: ClusterDeps): void {
  const { db } = deps;

  app.get(
    `${base}/`,
    {
      config: {
        auth: 'user',
        // One workspace's jobs when the query names one, else those of every workspace the caller reads.
        workspace: { key: (request) => workspaceQuery(request) },
        scope: 'visible',
      },
      schema: {
        tags,
        description:
          'Batch jobs, newest first: of `workspace`, else of every workspace the caller reads (staff: of every workspace).',
        querystring: jobListQuery,
        response: { 200: jobList },
      },
    },
    async (request) =>
      listJobs(db, { workspace: request.access.workspace, scope: scopeOf(request) }, request.query),
  );

  app.post(
    `${base}/`,
    { config: submitter, schema: { tags, body: jobSpec, response: { 200: createdJob } } },
    async (request) => ({ id: (await createJob(deps, workspaceOf(request), request.body)).id }),
  );

  // The job spec as gzip-compressed JSON bytes, whatever the content type says.
  app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 64 * 1024 * 1024 }, (_r, body, done) =>
      done(null, body),
    );
    scope.post(
      `${base}/compressed`,
      {
        config: submitter,
        // The spec is read before access is resolved, as the other submit calls read theirs.
        preValidation: async (request) => {
          request.body = readCompressedSpec(request.body);
        },
        schema: {
          tags,
          description: 'The body of `POST jobs/`, gzip-compressed (at most 2.4 MB compressed).',
          response: { 200: createdJob },
        },
      },
      async (request) => ({
        id: (await createJob(deps, workspaceOf(request), request.body as z.infer<typeof jobSpec>)).id,
      }),
    );
  });

  app.post(
    `${base}/single-job-script/`,
    {
      config: submitter,
      schema: {
        tags,
        description:
          'A job and the cluster it runs on in one call: `cluster` takes the options of a cluster create (and `max_workers`).',
        body: singleJobBody,
        response: { 200: createdSingleJob },
      },
    },
    async (request) => createSingleJob(deps, workspaceOf(request), request.body),
  );

  app.get(
    `${base}/:job_id`,
    { config: ofJob, schema: { tags, params: jobParams, response: { 200: jobDetails } } },
    async (request) => jobDetailsFor(db, jobOf(request).job),
  );

  app.delete(
    `${base}/:job_id`,
    {
      config: ofJob,
      schema: {
        tags,
        description: 'Cancels the job: running tasks are stopped (TERM, then KILL) and so is its cluster.',
        params: jobParams,
        response: { 200: jobDetails },
      },
    },
    async (request) => jobDetailsFor(db, await cancelJob(deps, jobOf(request))),
  );

  app.get(
    `${base}/cluster/:cluster_id`,
    {
      config: { auth: 'user', cluster: { id: 'cluster_id' } },
      schema: { tags, params: jobClusterParams, response: { 200: z.array(clusterJob) } },
    },
    async (request) => jobsOfCluster(db, clusterOf(request)),
  );

  app.get(
    `${base}/:job_id/output-files`,
    {
      config: ofJob,
      schema: {
        tags,
        description: "The files in the job's output filestores, with expiring links to download them.",
        params: jobParams,
        response: { 200: outputFilesAnswer },
      },
    },
    async (request) => {
      const { job } = jobOf(request);
      return job.clusterId === null ? { files: [] } : outputFiles(deps, job.clusterId);
    },
  );

  app.get(
    `${base}/:job_id/tasks/:array_task_id/output`,
    {
      config: ofJob,
      schema: {
        tags,
        description: "A task's kept output file (jobs with `pipe_to_files`), as text.",
        params: taskOutputParams,
      },
    },
    async (request, reply) => {
      const { job } = jobOf(request);
      const [task] = await db
        .select()
        .from(runTasks)
        .where(and(eq(runTasks.batchJobId, job.id), eq(runTasks.arrayTaskId, request.params.array_task_id)));
      if (!task) throw notFound('Task not found.');
      const file = outputPath(deps.config.dataDir, job.id, task.arrayTaskId);
      if (task.outputBytes === null || !(await stat(file).catch(() => null)))
        throw notFound(
          `Task ${task.arrayTaskId} has no output file${job.pipeToFiles ? ' yet' : ' (the job does not keep them)'}.`,
        );
      return reply
        .type('text/plain; charset=utf-8')
        .header('content-disposition', `attachment; filename="job-${job.id}-task-${task.arrayTaskId}.log"`)
        .send(createReadStream(file));
    },
  );
}
