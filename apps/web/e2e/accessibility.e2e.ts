import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { uniqueName } from './harness/api';
import { seriousViolations } from './harness/axe';
import { heading, type Screen, seedEveryPage, signedInScreens } from './harness/every-page';
import { signIn } from './harness/journeys';
import { consoleSuite } from './harness/suite';

const STAFF_EMAIL = `${uniqueName('a11y-staff')}@example.com`;
const suite = consoleSuite({ env: { CUMULUS_STAFF_EMAILS: STAFF_EMAIL } });

const anyHeading = (page: Page) => page.getByRole('heading', { level: 1 }).first().waitFor();

/** The pages a visitor sees signed out. */
const PUBLIC_SCREENS: Screen[] = [
  { name: 'sign-in', path: '/login', ready: heading('Sign in to Cumulus') },
  { name: 'sign-up', path: '/signup', ready: heading('Create your account') },
  { name: 'forgot-password', path: '/reset-password', ready: anyHeading },
  { name: 'reset-password-confirm', path: '/reset-password/key/abc/def-ghi', ready: anyHeading },
  { name: 'retrieve-username', path: '/retrieve-username', ready: anyHeading },
  { name: 'verify-email-sent', path: '/verify-email-sent', ready: anyHeading },
  { name: 'verify-email-resend', path: '/verify-email-resend', ready: anyHeading },
  { name: 'pro-plan', path: '/go-cumulus-pro', ready: anyHeading },
  { name: 'docs', path: '/docs', ready: heading('Cumulus documentation') },
  { name: 'docs-operations', path: '/docs/operations', ready: anyHeading },
  { name: 'docs-search', path: '/docs/search?q=idle+timeout', ready: heading('Results for “idle timeout”') },
  { name: 'docs-search-none', path: '/docs/search?q=zzqx', ready: heading('No results for “zzqx”') },
];

describe('accessibility', () => {
  it('axe finds nothing serious or critical (WCAG 2.1 A and AA) on any page, at 1440 and 390 px', async () => {
    const seed = await seedEveryPage(suite.server, 'a11y', STAFF_EMAIL);
    const { api, login } = seed;
    // A job waiting for its cluster, for the job's page.
    const job = await api.call('POST', '/api/v2/jobs/', { workspace: seed.user, user_command: 'sleep 60' });
    const cluster = `/clusters/${seed.cluster}`;
    const account = `?account=${seed.user}`;
    const signedIn: Screen[] = [
      ...signedInScreens(seed),
      {
        name: 'cluster-metrics',
        path: `${cluster}/metrics${account}`,
        ready: (page) => page.getByRole('group', { name: 'Time range' }).waitFor(),
      },
      {
        name: 'cluster-analytics',
        path: `${cluster}/analytics${account}`,
        ready: (page) => page.getByRole('region', { name: 'Running now' }).waitFor(),
      },
      { name: 'batch-job', path: `/batch/jobs/${job.id}`, ready: heading(`Batch job ${job.id}`) },
      { name: 'cloud-credentials', path: '/settings/setup/credentials', ready: heading('Cloud Setup') },
      { name: 'not-found', path: '/no-such-page', ready: (page) => page.getByText('404:').waitFor() },
    ];

    const found: string[] = [];
    for (const width of [1440, 390]) {
      const session = await suite.open({ width, height: width > 500 ? 900 : 844 });
      const { page } = session;
      const visit = async (screen: Screen) => {
        await page.goto(screen.path);
        await screen.ready(page);
        found.push(...(await seriousViolations(page, `${screen.name} @${width}`)));
        await session.screenshot(`a11y-${width}-${screen.name}`);
      };
      for (const screen of PUBLIC_SCREENS) await visit(screen);
      await page.goto('/login');
      await signIn(page, login);
      if (width === 1440) {
        // The first sign-in greets with a dialog.
        const welcome = page.getByRole('dialog', { name: 'Welcome to Cumulus' });
        await welcome.waitFor();
        found.push(...(await seriousViolations(page, `welcome-dialog @${width}`)));
        await page.getByRole('button', { name: 'Skip' }).click();
        await welcome.waitFor({ state: 'detached' });
      }
      await page.getByRole('heading', { name: 'Get Started', level: 1 }).waitFor();
      for (const screen of signedIn) await visit(screen);
    }
    expect(found, 'serious or critical accessibility violations').toEqual([]);
    await api.call('DELETE', `/api/v2/clusters/account/${seed.user}/id/${seed.cluster}?reason=done`);
  }, 900_000);
});
