import { api, call } from '@/lib/api/client';

/** A task's kept output file (jobs with `pipe_to_files`), as text: what its Output button saves. */
export const getTaskOutput = ({ jobId, arrayTaskId }: { jobId: number; arrayTaskId: number }) =>
  call(
    api.GET('/api/v2/jobs/{job_id}/tasks/{array_task_id}/output', {
      params: { path: { job_id: jobId, array_task_id: arrayTaskId } },
      parseAs: 'text',
    }),
  );

/** The name the server gives the file. */
export const taskOutputFileName = (jobId: number, arrayTaskId: number) =>
  `job-${jobId}-task-${arrayTaskId}.log`;
