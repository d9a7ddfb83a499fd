import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { BatchJobsPage } from '@/features/batch/BatchJobsPage';
import { stubApi } from '@/test/api-stub';
import { jobSummary } from '@/test/jobs-fixtures';
import { renderSignedIn, testUser } from '@/test/signed-in';

const items = <T,>(list: T[]) => ({ items: list, count: list.length });
const staff = { user: testUser({ isStaff: true }) };
const rowOf = (name: string) => screen.getByRole('link', { name }).closest('tr') as HTMLElement;

describe('BatchJobsPage', () => {
  afterEach(() => vi.restoreAllMocks());

  it('lists jobs of every workspace with their state, tasks, command, workspace, creator and cluster', async () => {
    const api = stubApi({
      'GET /api/v2/jobs/': items([
        jobSummary(13, {
          state: 'running',
          reason: '',
          completed: null,
          n_tasks_succeeded: 1,
          n_tasks_failed: 0,
          n_tasks_running: 2,
          workspace_name: 'Research',
          creator: 'grace',
        }),
        jobSummary(12),
      ]),
    });
    renderSignedIn(<BatchJobsPage />, { url: '/batch/jobs', signedIn: staff });

    const failed = await waitFor(() => rowOf('Batch job 12'));
    expect(screen.getByRole('link', { name: 'Batch job 12' })).toHaveAttribute('href', '/batch/jobs/12');
    expect(within(failed).getByText('Failed')).toHaveAttribute('title', '1 of 4 tasks failed');
    expect(within(failed).getByTitle('3 succeeded, 1 failed, 0 running of 4')).toBeInTheDocument();
    expect(within(failed).getByRole('link', { name: 'job-12' })).toHaveAttribute('href', '/clusters/62');
    const command = within(failed).getByText(/python train\.py/);
    expect(command).toHaveAttribute('title', 'python train.py --fold $CUMULUS_BATCH_TASK_ID # job 12');
    expect(command).toHaveClass('truncate', 'font-mono');

    const running = rowOf('Batch job 13');
    expect(within(running).getByText('Running')).toBeInTheDocument();
    expect(within(running).getByText('Research')).toBeInTheDocument();
    expect(within(running).getByText('grace')).toBeInTheDocument();
    expect(within(running).getByTitle('1 succeeded, 0 failed, 2 running of 4')).toBeInTheDocument();

    // Every workspace the caller reads: no workspace named; the first page of 50.
    const [call] = api.callsTo('GET', '/api/v2/jobs/');
    expect(Object.fromEntries(call!.query)).toEqual({ offset: '0', limit: '50' });
  });

  it('explains how to submit a first job when there is none', async () => {
    stubApi({ 'GET /api/v2/jobs/': items([]) });
    renderSignedIn(<BatchJobsPage />, { url: '/batch/jobs', signedIn: staff });
    expect(await screen.findByText('No batch jobs in your workspaces yet')).toBeInTheDocument();
    expect(screen.getByText('cumulus batch run --ntasks 10 script.py')).toBeInTheDocument();
  });

  it('filters by the state in the URL and pages with offset', async () => {
    const api = stubApi({ 'GET /api/v2/jobs/': { items: [], count: 0 } });
    const view = renderSignedIn(<BatchJobsPage />, {
      url: '/batch/jobs?state=failed&page=2&pagesize=10',
      signedIn: staff,
    });
    expect(await screen.findByText('No failed batch jobs')).toBeInTheDocument();
    const [call] = api.callsTo('GET', '/api/v2/jobs/');
    expect(Object.fromEntries(call!.query)).toEqual({ offset: '20', limit: '10', state: 'failed' });

    fireEvent.click(screen.getByRole('button', { name: 'Show every state' }));
    await waitFor(() => expect(view.router.state.location.search).toBe('?pagesize=10'));
    await waitFor(() => expect(api.callsTo('GET', '/api/v2/jobs/').at(-1)!.query.get('state')).toBeNull());
  });

  it('says when the list cannot be loaded, and retries', async () => {
    let fail = true;
    stubApi({
      'GET /api/v2/jobs/': () => (fail ? { status: 500, body: {} } : { body: items([jobSummary(12)]) }),
    });
    renderSignedIn(<BatchJobsPage />, { url: '/batch/jobs', signedIn: staff });
    expect(await screen.findByText('Could not load batch jobs')).toBeInTheDocument();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('link', { name: 'Batch job 12' })).toBeInTheDocument();
  });

  it('keeps refreshing while a job on the page is live', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const api = stubApi({ 'GET /api/v2/jobs/': items([jobSummary(13, { state: 'pending' })]) });
      renderSignedIn(<BatchJobsPage />, { url: '/batch/jobs', signedIn: staff });
      await screen.findByRole('link', { name: 'Batch job 13' });
      const before = api.callsTo('GET', '/api/v2/jobs/').length;
      await vi.advanceTimersByTimeAsync(2_100);
      await waitFor(() => expect(api.callsTo('GET', '/api/v2/jobs/').length).toBeGreaterThan(before));
    } finally {
      vi.useRealTimers();
    }
  });
});
