import type { Deps } from '../../deps.js';
import { ApiError } from '../../http/errors.js';
import type { z } from '../../http/zod.js';
import { callingInstance } from '../clusters/index.js';
import { claimNext } from './claim.js';
import type { nextTaskAnswer, nextTaskRequest } from './facing-schemas.js';
import { reportTask } from './report.js';

type Answer = z.infer<typeof nextTaskAnswer>;

/**
 * `POST cluster_facing/next-run-task/{backend_id}`: the end of the instance's last task (if any)
 * and the claim of its next one, already `running`, in one call: one round trip per task where
 * the separate calls take three (claim, start, end). The report and the claim are the ones of
 * `POST run-task` and `GET pending-run-task`; a report the control plane refuses (the task ended
 * meanwhile, or another instance holds it) answers `report: null` and the claim goes on.
 */
export async function nextRunTask(
  deps: Deps,
  clusterId: number,
  backendId: string,
  body: z.infer<typeof nextTaskRequest>,
): Promise<Answer> {
  const calling = await callingInstance(deps.db, clusterId, backendId);
  let report: Answer['report'] = null;
  if (body.report) {
    const { task_id, ...update } = body.report;
    try {
      report = await reportTask(deps, clusterId, task_id, update, calling.instance);
    } catch (e) {
      if (!(e instanceof ApiError && e.statusCode === 409)) throw e;
    }
  }
  return { report, task: await claimNext(deps, clusterId, calling, true) };
}
