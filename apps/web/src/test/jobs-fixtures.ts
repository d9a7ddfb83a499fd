// Wire-shaped answers of the jobs calls, for component tests (the stub stands in for the server).

const HOUR_AGO = new Date(Date.now() - 3_600_000).toISOString();
const MINUTE_AGO = new Date(Date.now() - 60_000).toISOString();

export function jobSummary(id: number, overrides: Record<string, unknown> = {}) {
  return {
    id,
    workspace_name: 'Acme',
    creator: 'ada',
    cluster_id: 50 + id,
    cluster_name: `job-${id}`,
    cluster_state: 'stopped',
    user_command: `python train.py --fold $CUMULUS_BATCH_TASK_ID # job ${id}`,
    n_tasks: 4,
    n_tasks_succeeded: 3,
    n_tasks_failed: 1,
    n_tasks_running: 0,
    created: HOUR_AGO,
    started: HOUR_AGO,
    completed: MINUTE_AGO,
    approximate_cloud_total_cost: null,
    state: 'failed',
    reason: '1 of 4 tasks failed',
    ...overrides,
  };
}

export function task(arrayTaskId: number, overrides: Record<string, unknown> = {}) {
  return {
    id: 900 + arrayTaskId,
    array_task_id: arrayTaskId,
    state: 'done',
    run_on: 'any',
    assigned_to: { instance_id: 70, name: 'job-12-worker-a1', private_ip_address: '10.0.0.7' },
    start: HOUR_AGO,
    stop: MINUTE_AGO,
    exit_code: 0,
    reason: '',
    retries: 0,
    output_bytes: 12,
    ...overrides,
  };
}

/** `GET jobs/{id}`: a job of four tasks on cluster 62 in workspace acme; task 2 failed. */
export function jobDetails(id = 12, overrides: Record<string, unknown> = {}) {
  const summary = jobSummary(id);
  return {
    ...summary,
    state: 'done (failed)',
    job_state: summary.state,
    finished: true,
    env_vars: { DATA_DIR: '/data/in' },
    secret_env_var_names: ['API_TOKEN'],
    workdir: '/scratch/batch',
    pipe_to_files: true,
    host_setup: null,
    timeout_seconds: 3600,
    max_retries: 1,
    max_concurrent_tasks: 2,
    files: ['train.py'],
    tasks: [
      task(0),
      task(1),
      task(2, { state: 'error', exit_code: 4, reason: 'Exited with code 4' }),
      task(3, { output_bytes: null }),
    ],
    ...overrides,
  };
}

/** `GET clusters/id/{id}/frontend`: where the job's cluster is. */
export const clusterFrontend = (id: number) => ({
  id,
  name: `job-${id - 50}`,
  account: { id: 7, slug: 'acme', name: 'Acme' },
});
