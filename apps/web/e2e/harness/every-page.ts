import type { Page } from 'playwright-core';
import { expect } from 'vitest';

import { apiAs, createVerifiedUser, json, uniqueName } from './api';
import { eventually } from './journeys';
import type { E2eServer } from './server';

/** Real Dask takes a while on a loaded two-core machine. */
const CLUSTER_DEADLINE_MS = 150_000;

export type Screen = {
  name: string;
  path: string;
  ready: (page: Page) => Promise<unknown>;
  /** Its table has rows with actions (Stop, Edit, Remove...), which must show at 390 px. */
  rowActions?: true;
};

export const heading = (name: string | RegExp) => (page: Page) =>
  page.getByRole('heading', { name, level: 1 }).waitFor();

export type Seed = Awaited<ReturnType<typeof seedEveryPage>>;

/**
 * A staff user (`email` must be one of CUMULUS_STAFF_EMAILS) with something on every page: a
 * running notebook cluster, an environment, a failed cluster, an organization with a workspace, a
 * member and an invitation, a failed client interaction, a pending terminal sign-in (and the
 * outbox has the verification mail). `prefix` names the user and the things made.
 */
export async function seedEveryPage(server: E2eServer, prefix: string, email: string) {
  const { base, smtp } = server;
  const user = await createVerifiedUser(base, smtp, prefix, { email });
  const api = await apiAs(base, user);
  const created = await api.call('POST', `/api/v2/clusters/account/${user.username}/`, {
    name: `${prefix}-etl`,
    workers: 1,
    tags: { team: 'data-platform', 'cumulus-cluster-type': 'notebook' },
  });
  const env = await api.call('POST', `/api/v2/software-environment/account/${user.username}`, {
    name: `${prefix}-env`,
    raw_pip: [],
  });
  // A cluster that fails (its environment cannot be built here), for Staff → Clusters.
  await api.call('POST', `/api/v2/software-environment/account/${user.username}`, {
    name: `${prefix}-conda-only`,
    raw_conda: { channels: ['conda-forge'], dependencies: ['numpy'] },
  });
  const doomed = await api.call('POST', `/api/v2/clusters/account/${user.username}/`, {
    name: `${prefix}-doomed`,
    workers: 0,
    env_name: `${prefix}-conda-only`,
  });
  // What `cumulus login` leaves for the browser to approve.
  const pending = await json(
    await fetch(`${base}/api/v1/api-tokens-no-user/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ label: `${prefix}@laptop` }),
    }),
  );
  const organization = await api.call('POST', '/api/v2/users/organizations/create', {
    name: uniqueName(`${prefix} Org `).slice(0, 30),
  });
  const workspace = await api.call('POST', '/api/v2/users/workspaces/', {
    name: uniqueName(`${prefix}-ws-`).slice(0, 30),
    organization_id: organization.id,
  });
  // A member and an invitation, each with a row of actions on the Team page and an edit page.
  const mate = await createVerifiedUser(base, smtp, `${prefix}-mate`);
  const grant = [{ workspace_id: workspace.id, is_admin: false, core_limit: 64, credit_limit: 1000 }];
  const added = await api.call('POST', '/api/v2/users/organizations/add-membership', {
    email_or_username: mate.username,
    organization_id: organization.id,
    workspaces: grant,
  });
  const invited = await api.call('POST', '/api/v2/users/organizations/add-membership', {
    email_or_username: `${uniqueName(`${prefix}-invitee`)}@example.com`,
    organization_id: organization.id,
    workspaces: grant,
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
  const state = async (id: number) =>
    (await api.call('GET', `/api/v2/clusters/account/${user.username}/id/${id}`)).current_state.state;
  await eventually(async () => expect(await state(created.id)).toBe('ready'), CLUSTER_DEADLINE_MS);
  await eventually(async () => expect(await state(doomed.id)).toBe('error'), CLUSTER_DEADLINE_MS);
  const buildId = env.latest_spec.latest_build.id as number;
  await eventually(async () => {
    const build = await api.call(
      'GET',
      `/api/v2/software-environment/account/${user.username}/build/${buildId}`,
    );
    expect(build.state).toBe('built');
  }, CLUSTER_DEADLINE_MS);
  return {
    api,
    login: user,
    prefix,
    user: user.username,
    cluster: created.id as number,
    alias: env.id as number,
    build: buildId,
    organization: organization.id as number,
    membership: added.membership.id as number,
    invite: invited.invite.id as number,
    pendingToken: pending.identifier as string,
  };
}

/** Every signed-in page of the seeded user, with what shows once it has loaded. */
export function signedInScreens(seed: Seed): Screen[] {
  const cluster = `/clusters/${seed.cluster}`;
  const account = `?account=${seed.user}`;
  const build = `/software/alias/${seed.alias}/account/${seed.user}/build/${seed.build}`;
  const etl = `${seed.prefix}-etl`;
  return [
    {
      name: 'get-started',
      path: '/get-started',
      ready: (page) => page.getByText('Install the Python client').waitFor(),
    },
    {
      name: 'dashboard',
      path: '/clusters',
      ready: (page) => page.getByRole('link', { name: etl, exact: true }).waitFor(),
      rowActions: true,
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
      rowActions: true,
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
      ready: (page) => page.getByRole('link', { name: etl, exact: true }).waitFor(),
      rowActions: true,
    },
    {
      name: 'software',
      path: '/software',
      ready: (page) => page.getByRole('link', { name: `${seed.prefix}-env` }).waitFor(),
    },
    {
      name: 'software-alias',
      path: `/software/alias/${seed.alias}/account/${seed.user}`,
      ready: heading(new RegExp(`${seed.prefix}-env`)),
    },
    {
      name: 'software-build-requirements',
      path: `${build}?tab=details`,
      ready: (page) => page.getByRole('button', { name: 'Requirements' }).waitFor(),
    },
    {
      name: 'software-build-logs',
      path: `${build}?tab=logs`,
      ready: (page) => page.getByText('Nothing to install beyond the interpreter').waitFor(),
    },
    {
      name: 'software-build-installed',
      path: `${build}?tab=installed`,
      ready: (page) => page.locator('[aria-current=page]').filter({ hasText: 'Installed' }).waitFor(),
    },
    {
      name: 'software-build-local-environment',
      path: `${build}?tab=scan`,
      ready: (page) => page.getByText('No local environment information available').waitFor(),
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
      rowActions: true,
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
      name: 'team-edit-member',
      path: `/team/${seed.organization}/edit-member/${seed.membership}`,
      ready: heading('Edit Organization Member'),
    },
    {
      name: 'team-edit-invite',
      path: `/team/${seed.organization}/edit-invite/${seed.invite}`,
      ready: heading('Edit Invite'),
    },
    {
      name: 'activate-token',
      path: `/activate-token?id=${seed.pendingToken}`,
      ready: (page) => page.getByRole('heading', { name: 'Confirm Access Request' }).waitFor(),
    },
    {
      name: 'profile',
      path: '/profile',
      ready: (page) => page.getByRole('heading', { name: 'API Tokens', exact: true }).waitFor(),
    },
    { name: 'batch-jobs', path: '/batch/jobs', ready: heading('Batch Jobs') },
    {
      name: 'staff-users',
      path: '/staff',
      ready: (page) => page.getByRole('switch').first().waitFor(),
      rowActions: true,
    },
    {
      name: 'staff-organizations',
      path: '/staff?tab=organizations',
      ready: (page) =>
        page
          .getByRole('button', { name: /on the Team page/ })
          .first()
          .waitFor(),
      rowActions: true,
    },
    {
      name: 'staff-clusters',
      path: '/staff?tab=clusters',
      ready: (page) =>
        page
          .getByRole('row')
          .filter({ hasText: `${seed.prefix}-doomed` })
          .waitFor(),
      rowActions: true,
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
}
