import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';

import { apiAs, createVerifiedUser } from './harness/api';
import { eventually, expectNoConsoleErrors, signIn } from './harness/journeys';
import { consoleSuite } from './harness/suite';

const suite = consoleSuite();
const run = promisify(execFile);

/** Real Dask and a real pip take a while on a loaded two-core machine. */
const CLUSTER_DEADLINE_MS = 150_000;
/** The console polls the flags every 10 s; the scheduler reports every 5 s. */
const TICK_DEADLINE_MS = 60_000;

// The user's own machine: a home of its own, where the commands Get Started shows are run.
const home = mkdtempSync(path.join(tmpdir(), 'cumulus-first-run-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill();
  rmSync(home, { recursive: true, force: true });
});
const terminalEnv = () => {
  const { CUMULUS_SERVER: _server, CUMULUS_API_TOKEN: _token, PYTHONPATH: _path, ...env } = process.env;
  return { ...env, HOME: home };
};
/** Runs what a user pastes in a terminal (bash), in the environment Get Started made. */
const terminal = (script: string, timeout = 300_000) =>
  run('bash', ['-c', script], { env: terminalEnv(), timeout, maxBuffer: 16 * 1024 * 1024 });

const step = (page: Page, title: string) => page.getByRole('listitem', { name: new RegExp(`^${title}`) });
const isDone = async (page: Page, title: string) =>
  (await step(page, title).getAttribute('aria-label'))?.endsWith('(done)') ?? false;
const snippet = (page: Page, title: string) => step(page, title).locator('pre code').first().textContent();

describe('first run', () => {
  it('a new user lands on Get Started and completes it; each step ticks from what really happened', async () => {
    const { base, smtp } = suite.server;
    const user = await createVerifiedUser(base, smtp, 'first');
    const session = await suite.open();
    const { page } = session;

    await page.goto('/');
    await signIn(page, user, { firstTime: true });
    await page.waitForURL('**/get-started');
    await page.getByText('0 of 4 steps done').waitFor();
    for (const title of [
      'Install the Python client',
      'Sign in from your terminal',
      'Create your first cluster',
    ])
      expect(await isDone(page, title)).toBe(false);
    // The server's own commands (its interpreter named), and a cluster made where the console looks.
    await page.getByText('Clusters here run').waitFor();
    expect(await step(page, 'Create your first cluster').locator('pre code').last().textContent()).toContain(
      `cumulus.Cluster(n_workers=2, workspace="${user.username}")`,
    );
    await session.screenshot('get-started-new', { fullPage: true });

    // The token banner: dismissed, it is gone for good.
    await page
      .getByRole('region', { name: 'Long-lived API tokens are here' })
      .getByRole('button', { name: 'Dismiss' })
      .click();
    await page.getByText('Long-lived API tokens are here').waitFor({ state: 'detached' });
    await page.reload();
    await page.getByText('0 of 4 steps done').waitFor();
    expect(await page.getByText('Long-lived API tokens are here').count()).toBe(0);

    // 1. The install commands, exactly as shown, for this server's client and interpreter.
    const install = (await snippet(page, 'Install the Python client')) ?? '';
    expect(install).toContain(`pip install --no-build-isolation ${base}/api/v2/client/cumulus.tar.gz`);
    await terminal(install);
    await run(path.join(home, '.venvs/cumulus/bin/cumulus'), ['--help'], { env: terminalEnv() });

    // 2. `cumulus login --server <this server>` from that environment, approved in the browser.
    const login = (await snippet(page, 'Sign in from your terminal')) ?? '';
    expect(login).toBe(`cumulus login --server ${base}`);
    const child = spawn('bash', ['-c', `source ~/.venvs/cumulus/bin/activate && ${login} --no-browser`], {
      env: terminalEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    await eventually(() => expect(output).toMatch(/type this code: [A-Z]{4}-[A-Z]{4}/), 60_000);
    const link = output.match(/https?:\/\/\S+\/activate-token\?id=\w+/)![0];
    const code = output.match(/type this code: ([A-Z]{4}-[A-Z]{4})/)![1]!;
    await page.goto(link);
    await page.getByLabel('Code from your terminal').fill(code);
    await page.getByRole('button', { name: 'Authorize Access' }).click();
    await page.getByRole('heading', { name: 'Authorized' }).waitFor();
    expect(await exited, output).toBe(0);
    expect(output).toContain(`Signed in to ${base} as ${user.username}`);

    await page.goto('/get-started');
    await eventually(async () => {
      expect(await isDone(page, 'Install the Python client')).toBe(true);
      expect(await isDone(page, 'Sign in from your terminal')).toBe(true);
    }, TICK_DEADLINE_MS);
    await page.getByText('2 of 4 steps done').waitFor();

    // 3. Create cluster from the page: the dialog names the workspace it creates in.
    await step(page, 'Create your first cluster').getByRole('button', { name: 'Create cluster' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create cluster' });
    await dialog.getByRole('combobox', { name: 'Workspace' }).waitFor();
    expect(await dialog.getByRole('combobox', { name: 'Workspace' }).textContent()).toContain(user.username);
    await dialog.getByLabel('Name').fill('first');
    await dialog.getByLabel('Workers').fill('1');
    await dialog.getByRole('button', { name: 'Create cluster' }).click();
    await page.waitForURL(/\/clusters\/\d+\?account=/);
    const clusterId = Number(new URL(page.url()).pathname.split('/')[2]);
    await eventually(
      async () =>
        expect(await page.locator('header [data-slot=state-chip]').first().textContent()).toBe('Ready'),
      CLUSTER_DEADLINE_MS,
    );
    await page.goto('/get-started');
    await eventually(
      async () => expect(await isDone(page, 'Create your first cluster')).toBe(true),
      TICK_DEADLINE_MS,
    );

    // 4. Compute on it from the terminal's Python (the saved login; the snippet of step 4).
    const compute = (await snippet(page, 'Compute on it')) ?? '';
    const script = [
      'import cumulus',
      `cluster = cumulus.Cluster(name="${user.username}/first", shutdown_on_close=False)`,
      compute,
    ].join('\n');
    const { stdout } = await terminal(
      `source ~/.venvs/cumulus/bin/activate && cd ~ && python - <<'PY'\n${script}\nPY`,
      CLUSTER_DEADLINE_MS,
    );
    expect(stdout).toContain('4950');
    await eventually(async () => expect(await isDone(page, 'Compute on it')).toBe(true), TICK_DEADLINE_MS);
    await page.getByRole('region', { name: 'All set' }).waitFor();
    await page.getByText('4 of 4 steps done').waitFor();
    expect(
      await step(page, 'Compute on it')
        .getByRole('link', { name: `cluster #${clusterId}` })
        .count(),
    ).toBe(1);
    await session.screenshot('get-started-done');

    // The checklist recorded itself complete (interactions/get-started), with the computation and
    // the client's use (its terminal sign-in).
    const api = await apiAs(base, user);
    await eventually(async () =>
      expect(await api.call('GET', '/api/v2/interactions/get-started')).toEqual({
        completed: true,
        data: { computed: { cluster_id: clusterId }, client: expect.any(Object) },
      }),
    );
    expect((await api.call('GET', '/api/v2/interactions/flag/get-started')).completed).toBe(true);

    await api.call('DELETE', `/api/v2/clusters/account/${user.username}/id/${clusterId}?reason=done`);
    expectNoConsoleErrors(session.errors);
  }, 900_000);

  it("one modal at a time: a page's dialog on first sign-in works, then the welcome dialog asks", async () => {
    const { base, smtp } = suite.server;
    const user = await createVerifiedUser(base, smtp, 'modal');
    const session = await suite.open({ width: 390, height: 844 });
    const { page } = session;

    // The banner's link, followed before ever signing in.
    await page.goto('/profile?createTokenDialog=true');
    await signIn(page, user);
    const tokenDialog = page.getByRole('dialog', { name: 'Create API token' });
    await tokenDialog.waitFor();
    await page.getByText('Long-lived API tokens are here').waitFor();
    expect(await page.getByRole('dialog').count()).toBe(1);
    await session.screenshot('first-sign-in-token-dialog');

    await tokenDialog.getByLabel('Label (optional)').fill('laptop');
    await tokenDialog.getByRole('button', { name: 'Create token' }).click();
    const created = page.getByRole('dialog', { name: 'API token created' });
    await created.getByRole('button', { name: 'Done' }).click();
    await created.waitFor({ state: 'detached' });

    // Now the welcome dialog, alone; and a user with a token sees no token banner.
    const welcome = page.getByRole('dialog', { name: 'Welcome to Cumulus' });
    await welcome.waitFor();
    expect(await page.getByRole('dialog').count()).toBe(1);
    await page.getByText('Long-lived API tokens are here').waitFor({ state: 'detached' });
    await session.screenshot('first-sign-in-welcome-after');
    await welcome.getByRole('button', { name: 'Skip' }).click();
    await welcome.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: /Revoke token laptop/ }).waitFor();
    expectNoConsoleErrors(session.errors);
  });
});
