import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { agentFacing, type Deps } from '../../deps.js';
import type { App } from '../../http/app-types.js';
import { announcedSize } from '../../http/uploads.js';
import { z } from '../../http/zod.js';
import { backendId, callingCluster } from '../clusters/index.js';
import { claimRunTask } from './claim.js';
import {
  claimedTaskSchema,
  nextTaskAnswer,
  nextTaskRequest,
  runTaskAnswer,
  runTaskParams,
  runTaskSchema,
  runTaskUpdate,
} from './facing-schemas.js';
import { nextRunTask } from './next-task.js';
import { storeOutput } from './output.js';
import { reportTask } from './report.js';
import { heldRunTasks } from './run-tasks.js';

const tags = ['cluster-facing'];
const cluster = { auth: 'cluster', csrf: false } as const;
const base = '/api/v2/cluster_facing';

/** The calls instances of batch clusters make about the tasks they run. */
export function registerRunTaskRoutes(app: App, allDeps: Deps): void {
  const deps = agentFacing(allDeps);
  const { db } = deps;

  app.get(
    `${base}/pending-run-task/:instance_backend_id`,
    {
      config: cluster,
      schema: {
        tags,
        description:
          'The task the instance should run next: one it holds, else the oldest pending one for ' +
          'its role, which it now holds (`assigned`). `task` is null when there is none.',
        params: z.object({ instance_backend_id: backendId }),
        response: { 200: z.object({ task: claimedTaskSchema.nullable() }) },
      },
    },
    async (request) => claimRunTask(deps, callingCluster(request), request.params.instance_backend_id),
  );

  app.post(
    `${base}/next-run-task/:instance_backend_id`,
    {
      config: cluster,
      schema: {
        tags,
        description:
          "Ends the instance's last task (`report`: `done` or `error`, as `POST run-task` does) and " +
          'claims its next one, already `running`, in one call. A refused report (409) answers ' +
          '`report: null`; `task` is null when there is nothing to run for now.',
        params: z.object({ instance_backend_id: backendId }),
        body: nextTaskRequest,
        response: { 200: nextTaskAnswer },
      },
    },
    async (request) =>
      nextRunTask(deps, callingCluster(request), request.params.instance_backend_id, request.body),
  );

  app.get(
    `${base}/pending-run-tasks/:instance_backend_id`,
    {
      config: cluster,
      schema: {
        tags,
        description: 'The tasks the instance holds and has not started (after a restart, say).',
        params: z.object({ instance_backend_id: backendId }),
        response: { 200: z.object({ tasks: z.array(runTaskSchema) }) },
      },
    },
    async (request) => heldRunTasks(db, callingCluster(request), request.params.instance_backend_id),
  );

  app.post(
    `${base}/run-task/:task_id`,
    {
      config: cluster,
      schema: {
        tags,
        description:
          'Reports a task `running` (also while it runs), `done` or `error` (with `exit_code`). Done ' +
          'and errored tasks never move again (409); a `running` report of a task that ended ' +
          'meanwhile (cancelled, timed out) answers `stop_task`.',
        params: runTaskParams,
        body: runTaskUpdate,
        response: { 200: runTaskAnswer },
      },
    },
    async (request) => reportTask(deps, callingCluster(request), request.params.task_id, request.body),
  );

  // A task's output file (`pipe_to_files`), streamed to disk as it arrives.
  app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    scope.addContentTypeParser(['application/octet-stream', 'text/plain'], (_request, payload, done) =>
      done(null, payload),
    );
    scope.put(
      `${base}/run-task/:task_id/output`,
      {
        config: cluster,
        schema: {
          tags,
          description: "A task's output file, kept after the cluster stops (jobs with `pipe_to_files`).",
          params: runTaskParams,
          response: { 200: z.object({ size_bytes: z.number().int() }) },
        },
      },
      async (request) =>
        storeOutput(
          db,
          deps.config.dataDir,
          callingCluster(request),
          request.params.task_id,
          request.body as NodeJS.ReadableStream | undefined,
          announcedSize(request),
        ),
    );
  });
}
