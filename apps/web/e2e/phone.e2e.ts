import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { apiAs, createVerifiedUser, uniqueName } from './harness/api';
import { eventually, expectNoConsoleErrors, signIn } from './harness/journeys';
import { overflowOf } from './harness/layout';
import { consoleSuite } from './harness/suite';

const STAFF_EMAIL = `${uniqueName('phone-staff')}@example.com`;
const suite = consoleSuite({ env: { CUMULUS_STAFF_EMAILS: STAFF_EMAIL } });

/** Real Dask takes a while on a loaded two-core machine. */
const CLUSTER_DEADLINE_MS = 150_000;

type Screen = { name: string; path: string; ready: (page: Page) => Promise<unknown> };

const heading = (name: string | RegExp) => (page: Page) =>
  page.getByRole('heading', { name, level: 1 }).waitFor();

/** Every signed-in page, with what shows once it has loaded. */
function screens(seed: {
  user: string;
  cluster: number;
  alias: number;
  build: number;
  organization: number;
}) {
  const cluster = `/clusters/${seed.cluster}`;
  const account = `?account=${seed.user}`;
  const list: Screen[] = [
    {
      name: 'get-started',
      path: '/get-started',
      ready: (page) => page.getByText('Install the Python client').waitFor(),
    },
    {
      name: 'dashboard',
      path: '/clusters',
      ready: (page) => page.getByRole('link', { name: 'phone-etl', exact: true }).waitFor(),
    },
    { name: 'dashboard-jobs', path: '/clusters?tab=jobs', ready: heading('Dashboard') },
    {
      name: 'cluster-overview',
      path: `${cluster}${account}`,
      ready: (page) => page.getByRole('list', { name: 'State timeline' }).getByText('Ready').waitFor(),
    },
    {
      name: 'cluster-instances',
      path: `${cluster}/instances${account}`,
      ready: (page) => page.getByRole('row').filter({ hasText: 'Scheduler' }).first().waitFor(),
    },
    {
      name: 'cluster-logs',
      path: `${cluster}/logs${account}`,
      ready: (page) =>
        page.getByRole('log', { name: 'Log lines' }).getByText('Scheduler at:').first().waitFor(),
    },
    {
      name: 'cluster-events',
      path: `${cluster}/events${account}`,
      ready: (page) => page.getByRole('row').filter({ hasText: 'Scheduler instance' }).first().waitFor(),
    },
    {
      name: 'notebooks',
      path: '/notebooks',
      ready: (page) => page.getByRole('link', { name: 'phone-etl', exact: true }).waitFor(),
    },
    {
      name: 'software',
      path: '/software',
      ready: (page) => page.getByRole('link', { name: 'phone-env' }).waitFor(),
    },
    {
      name: 'software-alias',
      path: `/software/alias/${seed.alias}/account/${seed.user}`,
      ready: heading(/phone-env/),
    },
    {
      name: 'software-build',
      path: `/software/alias/${seed.alias}/account/${seed.user}/build/${seed.build}`,
      ready: (page) => page.getByRole('button', { name: 'Requirements' }).waitFor(),
    },
    { name: 'cloud', path: '/settings/setup', ready: heading('Cloud Setup') },
    { name: 'billing', path: '/billing', ready: heading('Billing') },
    { name: 'usage', path: '/usage', ready: heading('Usage') },
    {
      name: 'team',
      path: '/team',
      ready: (page) => page.getByRole('heading', { name: 'Team', level: 1 }).waitFor(),
    },
    {
      name: 'team-members',
      path: '/team?tab=team',
      ready: (page) => page.getByRole('table').first().waitFor(),
    },
    {
      name: 'team-create-organization',
      path: '/team/create-organization',
      ready: heading('Create Organization'),
    },
    {
      name: 'team-create-workspace',
      path: `/team/${seed.organization}/create-workspace`,
      ready: heading('Create Workspace'),
    },
    {
      name: 'team-add-member',
      path: `/team/${seed.organization}/add-member`,
      ready: (page) => page.getByLabel('Username or email').waitFor(),
    },
    {
      name: 'profile',
      path: '/profile',
      ready: (page) => page.getByRole('heading', { name: 'API Tokens', exact: true }).waitFor(),
    },
    { name: 'batch-jobs', path: '/batch/jobs', ready: heading('Batch Jobs') },
    { name: 'staff-users', path: '/staff', ready: (page) => page.getByRole('switch').first().waitFor() },
    {
      name: 'staff-organizations',
      path: '/staff?tab=organizations',
      ready: (page) =>
        page
          .getByRole('button', { name: /on the Team page/ })
          .first()
          .waitFor(),
    },
    {
      name: 'staff-clusters',
      path: '/staff?tab=clusters',
      ready: (page) => page.getByText('No failed cluster needs attention').waitFor(),
    },
    {
      name: 'staff-mail',
      path: '/staff?tab=mail',
      ready: (page) => page.getByRole('list', { name: 'Outbox' }).waitFor(),
    },
    {
      name: 'staff-interactions',
      path: '/staff?tab=interactions',
      ready: (page) => page.getByText('ValueError', { exact: true }).first().waitFor(),
    },
  ];
  return list;
}

describe('every signed-in page', () => {
  it('fits a 390 px phone without sideways scrolling, and shows at 1280 px', async () => {
    const { base, smtp } = suite.server;
    const user = await createVerifiedUser(base, smtp, 'phone', { email: STAFF_EMAIL });
    const api = await apiAs(base, user);

    // Something on every page: a running notebook cluster, an environment, an organization with a
    // workspace, a failed client interaction (and the outbox has the verification mail).
    const created = await api.call('POST', `/api/v2/clusters/account/${user.username}/`, {
      name: 'phone-etl',
      workers: 1,
      tags: { team: 'data-platform', 'cumulus-cluster-type': 'notebook' },
    });
    const env = await api.call('POST', `/api/v2/software-environment/account/${user.username}`, {
      name: 'phone-env',
      raw_pip: [],
    });
    const organization = await api.call('POST', '/api/v2/users/organizations/create', {
      name: uniqueName('Phone Org ').slice(0, 30),
    });
    await api.call('POST', '/api/v2/users/workspaces/', {
      name: uniqueName('phone-ws-').slice(0, 30),
      organization_id: organization.id,
    });
    await api.call('POST', '/api/v2/interactions/interaction', {
      action: 'cluster-create',
      version: 1,
      success: false,
      cumulus_version: '0.1.0',
      error_message:
        'ValueError: n_workers must be >= 0, not -1, and this message is long enough to wrap on a phone',
      additional_data: { workspace: user.username },
    });
    await eventually(async () => {
      const details = await api.call('GET', `/api/v2/clusters/account/${user.username}/id/${created.id}`);
      expect(details.current_state.state).toBe('ready');
    }, CLUSTER_DEADLINE_MS);
    const seed = {
      user: user.username,
      cluster: created.id as number,
      alias: env.id as number,
      build: env.latest_spec.latest_build.id as number,
      organization: organization.id as number,
    };

    for (const [kind, viewport] of [
      ['phone', { width: 390, height: 844 }],
      ['desktop', { width: 1280, height: 800 }],
    ] as const) {
      const session = await suite.open(viewport);
      const { page } = session;
      await page.goto('/login');
      await signIn(page, user, { firstTime: kind === 'phone' });
      await page.getByRole('heading', { name: 'Get Started', level: 1 }).waitFor();
      const tooWide: string[] = [];
      for (const screen of screens(seed)) {
        await page.goto(screen.path);
        await screen.ready(page);
        if (kind === 'phone') {
          const overflow = await overflowOf(page, screen.name);
          if (overflow) tooWide.push(overflow);
          if (screen.name === 'cluster-logs') {
            // A log message gets the width of the phone, not one character per line.
            const message = await page.locator('[data-slot=log-message]').first().boundingBox();
            expect(message?.width ?? 0).toBeGreaterThan(300);
          }
        }
        await session.screenshot(`${kind}-${screen.name}`);
      }
      expect(tooWide, 'pages wider than the phone').toEqual([]);
      expectNoConsoleErrors(session.errors);
    }
    await api.call('DELETE', `/api/v2/clusters/account/${user.username}/id/${created.id}?reason=done`);
    // Two viewports of some 27 pages each, on a shared two-core machine.
  }, 600_000);
});
