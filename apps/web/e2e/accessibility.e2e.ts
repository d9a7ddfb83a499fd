import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { uniqueName } from './harness/api';
import { heading, type Screen, seedEveryPage, signedInScreens } from './harness/every-page';
import { signIn } from './harness/journeys';
import { consoleSuite } from './harness/suite';

const STAFF_EMAIL = `${uniqueName('a11y-staff')}@example.com`;
const suite = consoleSuite({ env: { CUMULUS_STAFF_EMAILS: STAFF_EMAIL } });

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
/** WCAG 2.1, levels A and AA. */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

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
];

/** The serious and critical violations axe finds on the page as it is now, one line per node. */
async function seriousViolations(page: Page, where: string): Promise<string[]> {
  // Evaluated over the DevTools protocol: the console's CSP refuses an injected script tag.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  // Enter animations (dialogs, fading cards) would be measured half-way: let them end.
  await page.waitForTimeout(300);
  const violations = await page.evaluate(async (tags) => {
    const { axe } = window as unknown as { axe: { run: (options: object) => Promise<AxeResults> } };
    const results = await axe.run({ runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return results.violations;
  }, WCAG_TAGS);
  return violations
    .filter((rule) => rule.impact === 'serious' || rule.impact === 'critical')
    .flatMap((rule) =>
      rule.nodes.map(
        (node) =>
          `${where}: ${rule.id} (${rule.impact}) at ${node.target.join(' ')}: ${node.html.slice(0, 160)}`,
      ),
    );
}

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
