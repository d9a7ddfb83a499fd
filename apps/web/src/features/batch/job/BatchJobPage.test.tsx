import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { BatchJobPage } from '@/features/batch/job/BatchJobPage';
import { paths } from '@/lib/paths';
import { reply, stubApi } from '@/test/api-stub';
import { captureDownloads } from '@/test/downloads';
import { clusterFrontend, jobDetails } from '@/test/jobs-fixtures';
import { renderSignedIn } from '@/test/signed-in';

const JOB = '/api/v2/jobs/12';
const LOGS = '/api/v2/clusters/account/acme/id/62/better-logs';

function openJob(routes: Record<string, unknown>, url = '/batch/jobs/12') {
  const api = stubApi({ 'GET /api/v2/clusters/id/62/frontend': clusterFrontend(62), ...routes });
  const view = renderSignedIn(null, { url, routes: [{ path: paths.batchJob, element: <BatchJobPage /> }] });
  return { ...view, api };
}

/** jsdom's Blob has no text(). */
const taskRow = (n: number) =>
  screen.getByRole('button', { name: `Logs of task ${n}` }).closest('tr') as HTMLElement;

describe('BatchJobPage', () => {
  afterEach(() => vi.restoreAllMocks());

  it('says a cancelled job that never started did not run, not "Not yet"', async () => {
    openJob({
      [`GET ${JOB}`]: jobDetails(12, {
        state: 'done (cancelled)',
        job_state: 'cancelled',
        started: null,
        tasks: [],
      }),
    });
    const header = await screen.findByRole('banner');
    const fact = (label: string) =>
      screen.getAllByText(label, { selector: 'dt' }).map((dt) => dt.nextElementSibling);
    await within(header).findByText('Did not run');
    expect(fact('Started')[0]).toHaveTextContent('Never');
    expect(screen.queryByText('Not yet')).not.toBeInTheDocument();
  });

  it('shows the job: its state and why, its cluster, settings, variables and every task', async () => {
    openJob({ [`GET ${JOB}`]: jobDetails() });
    expect(await screen.findByRole('heading', { name: 'Batch job 12', level: 1 })).toBeInTheDocument();
    const header = screen.getByRole('banner');
    expect(within(header).getByText('Failed')).toBeInTheDocument();
    expect(within(header).getByText('1 of 4 tasks failed')).toBeInTheDocument();
    expect(within(header).getByTitle('3 succeeded, 1 failed, 0 running of 4')).toBeInTheDocument();
    // The cluster's link selects its workspace once the cluster says which it is.
    await waitFor(() =>
      expect(within(header).getByRole('link', { name: 'job-12' })).toHaveAttribute(
        'href',
        '/clusters/62?account=acme',
      ),
    );
    // Finished: nothing to cancel.
    expect(screen.queryByRole('button', { name: 'Cancel job' })).not.toBeInTheDocument();

    const variables = screen.getByRole('list', { name: 'Environment variables' });
    expect(variables).toHaveTextContent('DATA_DIR=/data/in');
    expect(within(variables).getByText('API_TOKEN').closest('li')).toHaveTextContent('API_TOKENsecret');
    expect(screen.getByText('/scratch/batch')).toBeInTheDocument();
    expect(screen.getByText('2 at once')).toBeInTheDocument();
    expect(screen.getByText('1 hour')).toBeInTheDocument();
    expect(screen.getByText('train.py')).toBeInTheDocument();

    expect(within(taskRow(2)).getByText('Error')).toBeInTheDocument();
    expect(within(taskRow(2)).getByText('4')).toHaveClass('text-destructive');
    expect(within(taskRow(2)).getByText('Exited with code 4')).toBeInTheDocument();
    expect(within(taskRow(0)).getByText('job-12-worker-a1')).toBeInTheDocument();
    expect(within(taskRow(0)).getByRole('button', { name: 'Output of task 0' })).toBeInTheDocument();
    // Task 3 kept no output.
    expect(within(taskRow(3)).queryByRole('button', { name: /Output/ })).not.toBeInTheDocument();
  });

  it('cancels a live job only after a confirmation, then shows it cancelled', async () => {
    const live = jobDetails(12, { job_state: 'running', state: 'running', completed: null, finished: false });
    const { api } = openJob({
      [`GET ${JOB}`]: live,
      [`DELETE ${JOB}`]: jobDetails(12, { job_state: 'cancelled', reason: 'Cancelled by ada' }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel job' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Cancel batch job 12?' });
    expect(api.callsTo('DELETE', JOB)).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel job' }));
    await waitFor(() => expect(api.callsTo('DELETE', JOB)).toHaveLength(1));
    expect(await screen.findByText('Batch job 12 cancelled')).toBeInTheDocument();
    expect(await within(screen.getByRole('banner')).findByText('Cancelled')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel job' })).not.toBeInTheDocument();
  });

  it("says why the server refused a cancel (a member cancelling another's job)", async () => {
    const detail = 'Only the creator of batch job 12 and admins of Acme can cancel it.';
    openJob({
      [`GET ${JOB}`]: jobDetails(12, { job_state: 'pending', completed: null, started: null }),
      [`DELETE ${JOB}`]: reply(403, { detail }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel job' }));
    const dialog = await screen.findByRole('alertdialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel job' }));
    expect(await screen.findByText('Could not cancel batch job 12')).toBeInTheDocument();
    expect(screen.getByText(detail)).toBeInTheDocument();
  });

  it("opens a task's logs below the tasks: better-logs filtered by the task's id, in the URL", async () => {
    const line = (message: string) => ({
      timestamp: Date.now(),
      instance_id: 70,
      instance: 'job-12-worker-a1',
      message,
      source: 'system',
      task_id: 902,
    });
    const view = openJob({ [`GET ${JOB}`]: jobDetails(), [`GET ${LOGS}`]: [line('task 2')] });
    fireEvent.click(await screen.findByRole('button', { name: 'Logs of task 2' }));
    expect(await screen.findByRole('heading', { name: 'Logs of task 2' })).toBeInTheDocument();
    const log = await screen.findByRole('log', { name: 'Log lines' });
    expect(await within(log).findByText('task 2')).toBeInTheDocument();
    // The cluster's name is left out of the instance's.
    expect(within(log).getByText('worker-a1')).toBeInTheDocument();
    expect(view.api.callsTo('GET', LOGS)[0]!.query.get('task_id')).toBe('902');
    expect(view.router.state.location.search).toBe('?task=2');
    expect(screen.getByRole('button', { name: 'Logs of task 2' })).toHaveAttribute('aria-pressed', 'true');

    fireEvent.click(screen.getByRole('button', { name: "Close the task's logs" }));
    await waitFor(() => expect(screen.queryByRole('log')).not.toBeInTheDocument());
    expect(view.router.state.location.search).toBe('');
  });

  it("downloads a task's kept output with the session's credentials", async () => {
    const downloads = captureDownloads();
    const { api } = openJob({
      [`GET ${JOB}`]: jobDetails(),
      [`GET ${JOB}/tasks/0/output`]: 'task 0 says hello',
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Output of task 0' }));
    await waitFor(() => expect(downloads.click).toHaveBeenCalled());
    expect(api.callsTo('GET', `${JOB}/tasks/0/output`)).toHaveLength(1);
    expect(await downloads.text(0)).toContain('task 0 says hello');
    expect(downloads.fileName(0)).toBe('job-12-task-0.log');
  });

  it('says so when the job does not exist (or is in a workspace the user is not in)', async () => {
    openJob({ [`GET ${JOB}`]: reply(404, { detail: 'Batch job not found.' }) });
    expect(await screen.findByText('Batch job not found')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the jobs' })).toHaveAttribute(
      'href',
      '/clusters?tab=jobs',
    );
  });

  it("lists the files of the job's output filestores with their download links", async () => {
    openJob({
      [`GET ${JOB}`]: jobDetails(),
      [`GET ${JOB}/output-files`]: {
        files: [
          {
            filestore: 'j-output',
            relative_path: 'out-0.txt',
            size: 2048,
            url: 'http://cumulus.test/blob/out-0',
          },
        ],
      },
    });
    const files = await screen.findByRole('list', { name: 'Output files' });
    const link = within(files).getByRole('link', { name: 'out-0.txt' });
    expect(link).toHaveAttribute('href', 'http://cumulus.test/blob/out-0');
    expect(link).toHaveAttribute('download', 'out-0.txt');
    expect(files).toHaveTextContent('2.0 KiB');
  });

  it('says where task output goes without contradicting the kept output files', async () => {
    openJob({
      [`GET ${JOB}`]: jobDetails(12, { pipe_to_files: false }),
      [`GET ${JOB}/output-files`]: {
        files: [
          { filestore: 'j-output', relative_path: 'out-0.txt', size: 10, url: 'http://cumulus.test/b' },
        ],
      },
    });
    await screen.findByRole('list', { name: 'Output files' });
    const fact = (label: string) =>
      screen.queryAllByText(label, { selector: 'dt' }).map((dt) => dt.nextElementSibling);
    // "Output files: Not kept" above the kept output files read as a contradiction: the setting is
    // about each task's printed output (pipe_to_files), not the files tasks write.
    expect(screen.queryByText('Not kept')).not.toBeInTheDocument();
    expect(fact('Output files')).toEqual([]);
    expect(fact('Task output as files')[0]).toHaveTextContent('No: in the logs only');
  });
});
