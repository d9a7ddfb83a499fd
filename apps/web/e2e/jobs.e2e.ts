import { readFile } from 'node:fs/promises';

import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { apiAs, createVerifiedUser } from './harness/api';
import { eventually, expectNoConsoleErrors, signIn } from './harness/journeys';
import { consoleSuite } from './harness/suite';

const suite = consoleSuite();

/** Real Dask clusters take a while on a loaded two-core machine. */
const JOB_DEADLINE_MS = 180_000;
/** Four tasks; task 2 fails with exit code 4, every task prints its id. */
const FAILING_TASK = 'echo "task $CUMULUS_BATCH_TASK_ID"; [ "$CUMULUS_BATCH_TASK_ID" != 2 ] || exit 4';

type Api = Awaited<ReturnType<typeof apiAs>>;

/** A job and the cluster that runs it, as the Python client submits them. */
async function submit(api: Api, workspace: string, spec: Record<string, unknown>, workers: number) {
  const { id } = await api.call('POST', '/api/v2/jobs/', { workspace, ...spec });
  const cluster = await api.call('POST', `/api/v2/clusters/account/${workspace}/`, {
    name: `job-${id}`,
    workers,
    batch_job_ids: [id],
  });
  return { id: id as number, clusterId: cluster.id as number };
}

async function clusterStopped(api: Api, workspace: string, clusterId: number) {
  await eventually(async () => {
    const cluster = await api.call('GET', `/api/v2/clusters/account/${workspace}/id/${clusterId}`);
    expect(cluster.current_state.state).toBe('stopped');
  }, JOB_DEADLINE_MS);
}

const headerState = (page: Page) => page.locator('header [data-slot=state-chip]').first();
const pageOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

describe('Batch jobs', () => {
  it('lists the jobs of every workspace of a staff user, filtered by state', async () => {
    const base = suite.server.base;
    const boss = await createVerifiedUser(base, suite.server.smtp, 'staff');
    // No API makes staff: the server is restarted on the edited database (before any cluster runs).
    await suite.server.withDatabase(async (database) => {
      await database.query('update users set is_staff = true where username = $1', [boss.username]);
    });
    const api = await apiAs(base, boss);
    const { slug } = (await api.call('GET', '/api/v2/user/me')).default_account;
    const waiting = await api.call('POST', '/api/v2/jobs/', {
      workspace: slug,
      user_command:
        'python etl.py --date "$RUN_DATE" --part "$CUMULUS_BATCH_TASK_ID" --output s3://bucket/out',
      task_array_ntasks: 8,
    });
    const cancelled = await api.call('POST', '/api/v2/jobs/', { workspace: slug, user_command: 'sleep 60' });
    await api.call('DELETE', `/api/v2/jobs/${cancelled.id}`);

    const session = await suite.open();
    const { page } = session;
    await page.goto('/batch/jobs');
    await signIn(page, boss, { firstTime: true });
    await page.getByRole('heading', { name: 'Batch Jobs', level: 1 }).waitFor();
    await page.getByRole('link', { name: `Batch job ${waiting.id}` }).waitFor();
    const row = page
      .getByRole('row')
      .filter({ has: page.getByRole('link', { name: `Batch job ${cancelled.id}` }) });
    await row.getByText('Cancelled').waitFor();
    expect(await row.textContent()).toContain(boss.username);
    await session.screenshot('batch-jobs');

    await page.getByRole('combobox', { name: 'State' }).click();
    await page.getByRole('option', { name: 'Pending' }).click();
    await page.waitForURL(/[?&]state=pending/);
    await page.getByRole('link', { name: `Batch job ${cancelled.id}` }).waitFor({ state: 'detached' });
    await page.getByRole('link', { name: `Batch job ${waiting.id}` }).waitFor();

    // A pending job's page: no cluster yet, and it may still be cancelled.
    await page.getByRole('link', { name: `Batch job ${waiting.id}` }).click();
    await page.getByRole('heading', { name: `Batch job ${waiting.id}`, level: 1 }).waitFor();
    await page.getByText('None started yet').waitFor();
    await page.getByRole('button', { name: 'Cancel job' }).waitFor();
    expectNoConsoleErrors(session.errors);
  });

  it("follows a job to its end, reads a failed task's logs and output, and finds it from its cluster and the Dashboard", async () => {
    const base = suite.server.base;
    const user = await createVerifiedUser(base, suite.server.smtp, 'batch');
    const api = await apiAs(base, user);
    const { slug } = (await api.call('GET', '/api/v2/user/me')).default_account;
    const job = await submit(
      api,
      slug,
      { user_command: FAILING_TASK, task_array_ntasks: 4, pipe_to_files: true },
      2,
    );

    const session = await suite.open();
    const { page } = session;
    await page.goto(`/batch/jobs/${job.id}`);
    await signIn(page, user, { firstTime: true });
    await page.getByRole('heading', { name: `Batch job ${job.id}`, level: 1 }).waitFor();
    await eventually(
      async () => expect(await headerState(page).textContent()).toBe('Failed'),
      JOB_DEADLINE_MS,
    );
    const header = page.locator('header').filter({ has: page.getByRole('heading', { level: 1 }) });
    await header.getByTitle('3 succeeded, 1 failed, 0 running of 4').waitFor();
    await header.getByText('1 of 4 tasks failed').waitFor();
    await eventually(async () =>
      expect(await header.getByRole('link', { name: `job-${job.id}` }).getAttribute('href')).toBe(
        `/clusters/${job.clusterId}?account=${slug}`,
      ),
    );
    expect(await page.getByRole('button', { name: 'Cancel job' }).count()).toBe(0);

    // Task 2 failed with its exit code; its logs hold its own output, and no other task's.
    const failed = page
      .getByRole('row')
      .filter({ has: page.getByRole('button', { name: 'Logs of task 2' }) });
    await failed.getByText('Exited with code 4').waitFor();
    await page.getByRole('button', { name: 'Logs of task 2' }).click();
    await page.waitForURL(/[?&]task=2/);
    const log = page.getByRole('log', { name: 'Log lines' });
    await log.getByText('task 2', { exact: true }).waitFor({ timeout: 60_000 });
    expect(await log.getByText('task 1', { exact: true }).count()).toBe(0);
    await session.screenshot('batch-job-logs');
    await page.getByRole('heading', { name: `Batch job ${job.id}`, level: 1 }).scrollIntoViewIfNeeded();
    await session.screenshot('batch-job');

    // Its kept output, downloaded with the session's credentials.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Output of task 2' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`job-${job.id}-task-2.log`);
    expect(await readFile(await download.path(), 'utf8')).toContain('task 2');

    // Its cluster's page leads back to it.
    await header.getByRole('link', { name: `job-${job.id}` }).click();
    await page.getByRole('heading', { name: `job-${job.id}`, level: 1 }).waitFor();
    await session.screenshot('batch-job-cluster');
    await page.getByRole('link', { name: `Batch job ${job.id}` }).click();
    await page.getByRole('heading', { name: `Batch job ${job.id}`, level: 1 }).waitFor();

    // Members find their workspace's jobs on the Dashboard's Jobs tab; the staff list is not theirs.
    await page.goto('/clusters');
    await page.getByRole('tab', { name: 'Jobs' }).click();
    await page.waitForURL(/[?&]tab=jobs/);
    const listed = page
      .getByRole('row')
      .filter({ has: page.getByRole('link', { name: `Batch job ${job.id}` }) });
    await listed.locator('[data-slot=state-chip]', { hasText: 'Failed' }).waitFor();
    await session.screenshot('dashboard-jobs');
    await page.goto('/batch/jobs');
    await page.getByText('Sorry, only Cumulus admins can view this page.', { exact: false }).waitFor();

    // On a phone: no sideways scrolling of the page; the tasks table scrolls inside its frame.
    const phone = await suite.open({ width: 390, height: 844 });
    await phone.page.goto(`/batch/jobs/${job.id}?task=2`);
    await signIn(phone.page, user);
    await phone.page.getByRole('log', { name: 'Log lines' }).getByText('task 2', { exact: true }).waitFor();
    expect(await pageOverflow(phone.page)).toBeLessThanOrEqual(0);
    await phone.page.getByRole('heading', { name: `Batch job ${job.id}`, level: 1 }).scrollIntoViewIfNeeded();
    await phone.screenshot('batch-job-390');
    await phone.page.getByRole('heading', { name: 'Tasks' }).scrollIntoViewIfNeeded();
    await phone.screenshot('batch-job-390-tasks');
    await phone.page.goto('/clusters?tab=jobs');
    await phone.page.getByRole('link', { name: `Batch job ${job.id}` }).waitFor();
    expect(await pageOverflow(phone.page)).toBeLessThanOrEqual(0);
    await phone.screenshot('dashboard-jobs-390');

    await clusterStopped(api, slug, job.clusterId);
    expectNoConsoleErrors(session.errors);
    expectNoConsoleErrors(phone.errors);
  }, 420_000);

  it('cancels a running job after a confirmation; its cluster stops', async () => {
    const base = suite.server.base;
    const user = await createVerifiedUser(base, suite.server.smtp, 'cancel');
    const api = await apiAs(base, user);
    const { slug } = (await api.call('GET', '/api/v2/user/me')).default_account;
    const job = await submit(api, slug, { user_command: 'sleep 600', task_array_ntasks: 2 }, 1);

    const session = await suite.open();
    const { page } = session;
    await page.goto(`/batch/jobs/${job.id}`);
    await signIn(page, user, { firstTime: true });
    await eventually(
      async () => expect(await headerState(page).textContent()).toBe('Running'),
      JOB_DEADLINE_MS,
    );
    await page.getByRole('button', { name: 'Cancel job' }).click();
    const confirm = page.getByRole('alertdialog', { name: `Cancel batch job ${job.id}?` });
    await session.screenshot('batch-job-cancel');
    await confirm.getByRole('button', { name: 'Cancel job' }).click();
    await page.getByText(`Batch job ${job.id} cancelled`).waitFor();
    await eventually(async () => expect(await headerState(page).textContent()).toBe('Cancelled'));
    await page.getByText(`Cancelled by ${user.username}`).first().waitFor();
    expect(await page.getByRole('button', { name: 'Cancel job' }).count()).toBe(0);
    await session.screenshot('batch-job-cancelled');

    await clusterStopped(api, slug, job.clusterId);
    expectNoConsoleErrors(session.errors);
  }, 300_000);
});
