import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { batchJobs, runTasks } from '../../db/schema/index.js';
import { ApiError, badRequest, notFound } from '../../http/errors.js';
import { type Announced, receiveFile } from '../../lib/receive-file.js';

/** A task's kept output (`pipe_to_files`) is at most this big; the rest is cut off. */
export const MAX_OUTPUT_BYTES = 256 * 1024 * 1024;

/** Where a task's output file is kept: `<dataDir>/jobs/<job>/task-<array id>.log`, after its cluster is gone. */
export const outputPath = (dataDir: string, jobId: number, arrayTaskId: number) =>
  path.join(dataDir, 'jobs', String(jobId), `task-${arrayTaskId}.log`);

/** `PUT cluster_facing/run-task/{id}/output`: the instance hands in the output file of a task of its cluster. */
export async function storeOutput(
  db: Db,
  dataDir: string,
  clusterId: number,
  taskId: number,
  body: NodeJS.ReadableStream | undefined,
  announced?: Announced,
): Promise<{ size_bytes: number }> {
  const [row] = await db
    .select({ task: runTasks, pipe: batchJobs.pipeToFiles })
    .from(runTasks)
    .innerJoin(batchJobs, eq(batchJobs.id, runTasks.batchJobId))
    .where(and(eq(runTasks.id, taskId), eq(runTasks.clusterId, clusterId)));
  if (!row) throw notFound('Run task not found.');
  if (!row.pipe)
    throw badRequest('This job does not keep output files (pipe_to_files is off).', 'NO_OUTPUT_FILES');
  if (!body || typeof body.pipe !== 'function') throw badRequest('Send the output file as the body.');
  const target = outputPath(dataDir, row.task.batchJobId!, row.task.arrayTaskId);
  const size = await receiveFile(body, target, {
    maxBytes: MAX_OUTPUT_BYTES,
    tooLarge: () => new ApiError(413, { detail: 'The output file is too large.' }),
    announced,
  });
  await db.update(runTasks).set({ outputBytes: size }).where(eq(runTasks.id, taskId));
  return { size_bytes: size };
}
