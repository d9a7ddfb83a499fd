/**
 * Who may call what: one rule per route of openapi.json, checked by authorization-matrix.test.ts
 * as each caller of helpers/world.ts. A route without a rule fails the matrix, so every new
 * capability appends its routes here.
 *
 * Path parameters named organization_id, workspace_id, account and workspace default to the
 * seeded world's; any other parameter needs `params`. A call that changes or destroys what it
 * names sets `fresh` (each caller gets a newly seeded world) or uses objects it creates itself.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { and, eq } from 'drizzle-orm';
import {
  batchJobs,
  cloudSetupAttempts,
  computations,
  filestores,
  httpsCertificates,
  instanceSpecs,
  instances,
  organizationSsoDomains,
  packageFiles,
  runTasks,
  softwareAliases,
  softwareBuildLogs,
  softwareBuilds,
  softwareSpecs,
  subscriptions,
} from '../src/db/schema/index.js';
import { outputPath } from '../src/domains/batch/output.js';
import { fileOf, signedLink } from '../src/domains/clusters/filestores/files.js';
import { findUserBy, login } from '../src/domains/identity/auth/service.js';
import { createPendingToken, createToken } from '../src/domains/identity/tokens/service.js';
import { upsertScheduler } from '../src/domains/observability/analytics/reports.js';
import { packageFilePath } from '../src/domains/software/files.js';
import type { TestUser } from './helpers/factories.js';
import type { TestServer } from './helpers/server.js';
import type { Cast, Role, World } from './helpers/world.js';

/** The user code of the pending token a call's `params` made, for its body. */
const userCodes = new WeakMap<CallContext, string>();

export type Expect = Record<Role, number>;
type Params = Record<string, string | number>;

export interface CallContext {
  ts: TestServer;
  role: Role;
  /** The caller; null when anonymous. */
  caller: TestUser | null;
  cast: Cast;
  world: World;
}

export interface RouteRule {
  expect: Expect;
  /** Every caller gets a newly seeded world (for calls that delete or change what they name). */
  fresh?: boolean;
  params?: (c: CallContext) => Params | Promise<Params>;
  query?: (c: CallContext) => Record<string, string | number | boolean>;
  body?: (c: CallContext) => unknown;
  /** Credentials other than the caller's session key, e.g. a session the call ends. */
  credentials?: (c: CallContext) => Promise<string>;
}

// The common shapes of who may call what.
export const everyone = (status: number): Expect => ({
  anonymous: status,
  outsider: status,
  member: status,
  workspaceAdmin: status,
  organizationAdmin: status,
  staff: status,
});
/** Any signed-in user, about themselves. */
export const signedIn = (status: number): Expect => ({ ...everyone(status), anonymous: 401 });
export const staffOnly = (status: number): Expect => ({ ...everyone(403), anonymous: 401, staff: status });
/** Members of the organization or workspace, its admins and staff read; outsiders see nothing. */
export const readers = (status: number): Expect => ({ ...everyone(status), anonymous: 401, outsider: 404 });
/** Workspace or organization admins: add teammates, edit member rows and credit limits. */
export const memberAdmins = (status: number): Expect => ({
  anonymous: 401,
  outsider: 404,
  member: 403,
  workspaceAdmin: status,
  organizationAdmin: status,
  staff: 403,
});
/** Organization admins: workspaces, roles, the organization itself. */
export const organizationAdmins = (status: number): Expect => ({
  ...memberAdmins(status),
  workspaceAdmin: 403,
});
/** Stop and scale a cluster: its creator (here a plain member other than the caller) and admins. */
export const clusterManagers = (status: number): Expect => ({
  anonymous: 401,
  outsider: 404,
  member: 403,
  workspaceAdmin: status,
  organizationAdmin: status,
  staff: 403,
});
/** Machine calls with a cluster's (or a build's) bearer token: no user credential is one. */
export const clusterOnly = (): Expect => everyone(401);

const freshEmail = () => `matrix-${randomBytes(4).toString('hex')}@example.com`;
const freshName = () => `mx${randomBytes(5).toString('hex')}`;
const userId = (c: CallContext) => (c.caller ?? c.cast.member).id;
const W = (c: CallContext) => c.world.workspace;
const C = (c: CallContext) => c.world.cluster;
/** The world cluster's worker instance. */
const worldWorker = async (c: CallContext) => {
  const [row] = await c.ts.server.deps.db
    .select()
    .from(instances)
    .where(eq(instances.clusterId, C(c).id));
  return row!;
};
/** A Dask scheduler of the world's cluster (as if it had registered). */
const worldScheduler = async (c: CallContext) => {
  const schedulerId = `Scheduler-matrix-${C(c).id}`;
  await upsertScheduler(c.ts.server.deps.db, C(c).id, schedulerId);
  return schedulerId;
};
/** A computation of the world cluster's scheduler (its id). */
const worldComputation = async (c: CallContext) => {
  const { db } = c.ts.server.deps;
  const schedulerRef = await upsertScheduler(db, C(c).id, `Scheduler-matrix-${C(c).id}`);
  const values = { clusterId: C(c).id, schedulerRef, identifier: 'matrix', start: new Date() };
  await db.insert(computations).values(values).onConflictDoNothing();
  const [row] = await db
    .select({ id: computations.id })
    .from(computations)
    .where(and(eq(computations.clusterId, C(c).id), eq(computations.identifier, 'matrix')));
  return row!.id;
};
/** An instance spec of the world cluster (rows made by createClusterRow have none of their own). */
const worldSpec = async (c: CallContext) => {
  const { db } = c.ts.server.deps;
  const values = { clusterId: C(c).id, role: 'worker' as const, backendType: 'in_process' };
  const machine = { instanceType: 'local', cores: 2, memoryMib: 2048, arch: 'x86_64' };
  await db
    .insert(instanceSpecs)
    .values({ ...values, ...machine })
    .onConflictDoNothing();
  const [row] = await db
    .select()
    .from(instanceSpecs)
    .where(eq(instanceSpecs.clusterId, C(c).id));
  return row!;
};
/** A built software environment of the world's workspace, made by `target`, and an uploaded wheel. */
/** A batch job of the world's workspace by `target`, with one task whose output file is kept. */
const worldJob = async (c: CallContext) => {
  const { db, config } = c.ts.server.deps;
  const [job] = await db
    .insert(batchJobs)
    .values({
      workspaceId: W(c).id,
      creatorId: c.world.target.id,
      userCommand: 'echo hi',
      nTasks: 1,
      pipeToFiles: true,
    })
    .returning();
  await db.insert(runTasks).values({ batchJobId: job!.id, command: 'echo hi', outputBytes: 3 });
  const file = outputPath(config.dataDir, job!.id, 0);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, 'hi\n');
  return job!;
};

/** A filestore of the world's workspace holding one file. */
const worldStore = async (c: CallContext) => {
  const { db, config } = c.ts.server.deps;
  const [store] = await db
    .insert(filestores)
    .values({ workspaceId: W(c).id, name: freshName() })
    .returning();
  const file = fileOf(config.dataDir, store!.id, 'a.txt')!;
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, 'a');
  return store!;
};
/** The query of a link the server would sign for the store's file. */
const linkQuery = (c: CallContext, fsId: number, direction: 'upload' | 'download') =>
  Object.fromEntries(new URL(signedLink(c.ts.server.deps.config, fsId, direction, 'a.txt')).searchParams);
const storeIds = new WeakMap<CallContext, number>();
const storeOf = async (c: CallContext) => {
  if (!storeIds.has(c)) storeIds.set(c, (await worldStore(c)).id);
  return storeIds.get(c)!;
};

const worldSoftware = async (c: CallContext) => {
  const { db } = c.ts.server.deps;
  const workspaceId = W(c).id;
  const [alias] = await db
    .insert(softwareAliases)
    .values({ workspaceId, name: freshName(), creatorId: c.world.target.id })
    .returning();
  const [spec] = await db
    .insert(softwareSpecs)
    .values({ aliasId: alias!.id, workspaceId, md5: '0'.repeat(32), rawPip: ['six'] })
    .returning();
  const [build] = await db
    .insert(softwareBuilds)
    .values({
      specId: spec!.id,
      workspaceId,
      backendType: 'in_process',
      state: 'built',
      lockfile: '# cumulus lockfile\nsix==1.16.0\n',
      reconcileAt: null,
    })
    .returning();
  await db
    .insert(softwareBuildLogs)
    .values({ buildId: build!.id, timestampMs: Date.now(), message: 'built' });
  const [file] = await db
    .insert(packageFiles)
    .values({
      workspaceId,
      fileName: 'matrix-1.0-py3-none-any.whl',
      project: 'matrix',
      clientMd5: 'x',
      md5: randomBytes(16).toString('hex'),
      uploaded: true,
      sizeBytes: 4,
    })
    .returning();
  const where = packageFilePath(c.ts.dataDir, file!);
  mkdirSync(path.dirname(where), { recursive: true });
  writeFileSync(where, 'whl!');
  return { alias: alias!, spec: spec!, build: build!, file: file! };
};
const unchangedRow = (c: CallContext) => ({
  workspace_id: W(c).id,
  is_admin: false,
  core_limit: 1000,
  credit_limit: 100000,
});

/** An SSO domain of the world's organization (verified: verifying it again asks no DNS). */
const worldSsoDomain = async (c: CallContext, verified: boolean) => {
  const [row] = await c.ts.server.deps.db
    .insert(organizationSsoDomains)
    .values({
      organizationId: c.world.organization.id,
      domain: `${freshName()}.example.com`,
      token: 'matrix'.padEnd(32, '0'),
      verifiedAt: verified ? new Date() : null,
      verifiedBy: verified ? 'staff' : null,
    })
    .returning();
  return row!;
};

export const RULES: Record<string, RouteRule> = {
  // Health and diagnostics.
  'GET /api/health': { expect: everyone(200) },
  'GET /api/v2/deployment': { expect: everyone(200) },
  'GET /api/v1/health': { expect: everyone(200) },
  'GET /api/v2/test/pagination/': { expect: everyone(200) },
  'GET /api/v2/test/authentication-required/': { expect: signedIn(200) },
  'POST /api/v2/test/authentication-required/': { expect: signedIn(200) },
  'GET /api/v2/test/raise-exception/': { expect: everyone(500) },
  'GET /api/v2/test/raise-cumulus-exception/': { expect: everyone(400) },

  // Identity: public forms answer everyone alike (here with inputs that change nothing).
  'POST /api/v1/registration/': { expect: everyone(400), body: () => ({}) },
  'POST /api/v1/registration/verify-email/': { expect: everyone(404), body: () => ({ key: 'no-such-key' }) },
  'POST /api/v1/resend-confirmation-email/': { expect: everyone(200), body: () => ({ email: freshEmail() }) },
  'POST /api/v1/users/retrieve-username/': { expect: everyone(200), body: () => ({ email: freshEmail() }) },
  'POST /api/v1/auth/login/': { expect: everyone(400), body: () => ({}) },
  'POST /api/v1/auth/logout/': {
    expect: signedIn(200),
    // Logging out ends the session it is called with: a session of its own.
    credentials: async (c) =>
      login(c.ts.server.deps.db, {
        username: c.caller!.username,
        password: c.caller!.password,
        ip: '10.9.9.9',
      }),
  },
  'POST /api/v1/auth/password/reset/': { expect: everyone(200), body: () => ({ email: freshEmail() }) },
  'POST /api/v1/auth/password/reset/confirm/': {
    expect: everyone(400),
    body: () => ({ uid: 'x', token: 'y', new_password1: 'a', new_password2: 'a' }),
  },
  // A refused change (passwords differ) shows the call got past authentication without ending sessions.
  'POST /api/v1/auth/password/change/': {
    expect: signedIn(400),
    body: () => ({ new_password1: 'Sturdy-passphrase-1', new_password2: 'Sturdy-passphrase-2' }),
  },
  'POST /users/{provider}/get_token': {
    expect: everyone(400),
    params: () => ({ provider: 'github' }),
    body: () => ({ code: 'x', state: 'x' }),
  },
  'GET /api/v2/workos/success': { expect: everyone(400), query: () => ({ code: 'x', state: 'x' }) },
  // Linked sign-in identities: each user's own (sign-in.test.ts links and unlinks real ones).
  'GET /api/v2/user/identities': { expect: signedIn(200) },
  'DELETE /api/v2/user/identities/{identity_id}': {
    expect: signedIn(404),
    params: () => ({ identity_id: '987654' }),
  },

  // API tokens: each user's own.
  'POST /api/v1/api-tokens/': { expect: signedIn(201), body: () => ({ label: 'matrix' }) },
  'GET /api/v1/api-tokens/': { expect: signedIn(200) },
  'DELETE /api/v1/api-tokens/{identifier}/revoke': {
    expect: signedIn(200),
    params: async (c) => {
      const { db } = c.ts.server.deps;
      const owner = (await findUserBy(db, 'id', userId(c)))!;
      return { identifier: (await createToken(db, owner, {})).identifier };
    },
  },
  'PATCH /api/v1/api-tokens/{id}/activate/': {
    expect: signedIn(200),
    params: async (c) => {
      const pending = await createPendingToken(c.ts.server.deps.db, 'matrix');
      userCodes.set(c, pending.user_code);
      return { id: pending.identifier };
    },
    body: (c) => ({ user_code: userCodes.get(c) }),
  },
  'POST /api/v1/api-tokens-no-user/': { expect: everyone(201), body: () => ({}) },

  // The current user.
  'GET /api/v2/user/me': { expect: signedIn(200) },
  'GET /api/v1/users/me/': { expect: signedIn(200) },
  'PATCH /api/v1/users/me/': { expect: signedIn(200), body: () => ({}) },
  'PATCH /api/v1/users/me/profile/': { expect: signedIn(200), body: () => ({}) },
  'PATCH /api/v1/users/{id}/access_token/': {
    expect: signedIn(200),
    params: (c) => ({ id: userId(c) }),
    body: () => ({ git_access_token: null }),
  },
  'GET /api/v2/user/me/memberships': { expect: signedIn(200) },
  'GET /api/v2/users/user/organization/memberships': { expect: signedIn(200) },
  'GET /api/v2/users/user/valid-scopes': { expect: signedIn(200) },
  // Only among the user's own organizations (staff belong to none of the world's).
  'POST /api/v2/users/user/change-default-organization': {
    expect: { ...readers(200), staff: 404 },
    body: (c) => ({ organization_id: c.world.organization.id }),
  },
  'GET /api/v2/user/account/{account}/usage': { expect: readers(200) },
  'GET /api/v2/user/account/{account}/options': { expect: readers(200) },
  'GET /api/v2/user/account/{account}/registry': { expect: readers(200) },
  'POST /api/v2/user/account/{account}/registry': {
    expect: memberAdmins(200),
    body: () => ({ type: 'local' }),
  },
  'GET /api/v2/user/account/{account}/public': { expect: readers(200) },
  'GET /api/v2/user/account/{account}/prometheus-read-credentials': { expect: readers(200) },
  'PATCH /api/v2/user/account/{account}': { expect: memberAdmins(200), body: () => ({ avatar_url: null }) },
  'GET /api/v2/user/source-ip': { expect: signedIn(200) },
  'GET /api/v2/user/hosted-activate': { expect: signedIn(200) },
  'GET /api/v2/user/hosted-approval-dry-run': { expect: signedIn(200) },

  // Cluster tags and alerts over the caller's own scope (nothing for someone in no workspace).
  'GET /api/v2/tags/labels': { expect: signedIn(200) },
  'GET /api/v2/tags/values': { expect: signedIn(200) },
  'GET /api/v2/tags/alert-contents': { expect: signedIn(200) },

  // Interactions and banners: each user's own.
  'GET /api/v1/interaction_types/': { expect: signedIn(200) },
  'GET /api/v1/interactions/': { expect: signedIn(200) },
  'POST /api/v1/interactions/': {
    expect: signedIn(201),
    body: () => ({ interaction_type: 'api-token-message' }),
  },
  'GET /api/v2/interactions/flag': { expect: signedIn(200) },
  'GET /api/v2/interactions/flag/{name}': { expect: signedIn(200), params: () => ({ name: 'get-started' }) },
  'PUT /api/v2/interactions/flag/{name}': {
    expect: signedIn(200),
    params: () => ({ name: 'get-started' }),
    body: () => ({ completed: false }),
  },
  'GET /api/v2/interactions/get-started': { expect: signedIn(200) },
  'PUT /api/v2/interactions/get-started': { expect: signedIn(200), body: () => ({}) },
  'POST /api/v2/interactions/interaction': { expect: signedIn(201), body: () => ({ action: 'matrix' }) },
  'GET /api/v1/banners': { expect: signedIn(200) },
  // What users did, for staff.
  'GET /api/v2/interactions/user-interactions': { expect: staffOnly(200), query: () => ({ success: false }) },
  'GET /api/v2/interactions/user-interactions/hello': { expect: staffOnly(200) },
  'GET /api/v2/interactions/user-interactions/keys': {
    expect: staffOnly(200),
    query: () => ({ query: 'a' }),
  },
  'GET /api/v2/interactions/user-interactions/key/values': {
    expect: staffOnly(200),
    query: () => ({ key: 'action', starts_with: 'm' }),
  },

  // The Python client of this server (Get Started's install step): the package is public.
  'GET /api/v2/client/install': { expect: signedIn(200) },
  'GET /api/v2/client/cumulus.tar.gz': { expect: everyone(200) },

  // Staff tools.
  'POST /api/v2/staff/users/{id}/unlock': {
    expect: staffOnly(200),
    params: (c) => ({ id: c.cast.member.id }),
  },
  'GET /api/v2/staff/emails': { expect: staffOnly(200) },
  'GET /api/v2/staff/users': { expect: staffOnly(200), query: (c) => ({ search: c.cast.member.username }) },
  'PATCH /api/v2/staff/users/{id}': {
    expect: staffOnly(200),
    params: (c) => ({ id: c.cast.member.id }),
    body: () => ({ is_active: true }),
  },
  'GET /api/v2/staff/clusters': { expect: staffOnly(200) },

  // Organizations.
  'POST /api/v2/users/organizations/create': { expect: signedIn(201), body: () => ({ name: freshName() }) },
  'GET /api/v2/users/organizations/': { expect: signedIn(200) },
  'GET /api/v2/users/organizations/details/{organization_id}': { expect: readers(200) },
  'GET /api/v2/users/organizations/members/{organization_id}': { expect: readers(200) },
  'GET /api/v2/users/organizations/membership/{membership_id}': {
    expect: readers(200),
    params: (c) => ({ membership_id: c.world.targetMembership.id }),
  },
  'POST /api/v2/users/organizations/add-membership': {
    expect: memberAdmins(201),
    body: (c) => ({
      email_or_username: freshEmail(),
      organization_id: c.world.organization.id,
      role: 'member',
      workspaces: [unchangedRow(c)],
    }),
  },
  'PATCH /api/v2/users/organizations/update-membership/{membership_id}': {
    expect: memberAdmins(200),
    params: (c) => ({ membership_id: c.world.targetMembership.id }),
    body: (c) => ({ role: 'member', workspaces: [unchangedRow(c)] }),
  },
  'DELETE /api/v2/users/organizations/remove-membership/{membership_id}': {
    expect: memberAdmins(204),
    fresh: true,
    params: (c) => ({ membership_id: c.world.targetMembership.id }),
  },
  'DELETE /api/v2/users/organizations/delete/{organization_id}': {
    expect: organizationAdmins(204),
    fresh: true,
  },
  'GET /api/v2/users/organizations/staff-list': { expect: staffOnly(200) },
  'GET /api/v2/users/organizations/staff-list-values': {
    expect: staffOnly(200),
    query: () => ({ starts_with: 'o' }),
  },

  // Workspaces.
  'POST /api/v2/users/workspaces/': {
    expect: organizationAdmins(201),
    body: (c) => ({ name: freshName(), organization_id: c.world.organization.id }),
  },
  'GET /api/v2/users/workspaces/': { expect: signedIn(200) },
  'GET /api/v2/users/workspaces/details': {
    expect: readers(200),
    query: (c) => ({ workspace_slug: W(c).slug }),
  },
  'PATCH /api/v2/users/workspaces/details/{workspace_id}': {
    expect: memberAdmins(200),
    body: () => ({ credit_limit: 5000 }),
  },
  'PATCH /api/v2/users/workspaces/membership/{membership_id}': {
    expect: memberAdmins(200),
    params: (c) => ({ membership_id: c.world.targetWorkspaceMembership.id }),
    body: () => ({ core_limit: 1000 }),
  },
  'DELETE /api/v2/users/workspaces/membership/{membership_id}': {
    expect: memberAdmins(204),
    fresh: true,
    params: (c) => ({ membership_id: c.world.targetWorkspaceMembership.id }),
  },
  'GET /api/v2/workspaces/{workspace}/members': { expect: readers(200) },

  // Invites.
  // The invitation a mailed link's token names: the token is the credential.
  'GET /api/v2/users/invites/token/{token}': {
    expect: everyone(200),
    params: (c) => ({ token: c.world.inviteToken }),
  },
  // Opened while signed in: the signed-in user accepts it (each caller its own world's invite).
  'POST /api/v2/users/invites/token/{token}/accept': {
    expect: signedIn(200),
    fresh: true,
    params: (c) => ({ token: c.world.inviteToken }),
  },
  'GET /api/v2/users/invites/organization-invite/{invite_id}': {
    expect: readers(200),
    params: (c) => ({ invite_id: c.world.invite.id }),
  },
  'PATCH /api/v2/users/invites/organization-invite/{invite_id}': {
    expect: memberAdmins(200),
    params: (c) => ({ invite_id: c.world.invite.id }),
    body: (c) => ({ role: 'member', workspaces: [unchangedRow(c)] }),
  },
  'DELETE /api/v2/users/invites/organization-invite/{invite_id}': {
    expect: memberAdmins(204),
    fresh: true,
    params: (c) => ({ invite_id: c.world.invite.id }),
  },
  'POST /api/v2/users/invites/organization-invite-resend/{invite_id}': {
    expect: memberAdmins(200),
    params: (c) => ({ invite_id: c.world.invite.id }),
  },
  'PATCH /api/v2/users/invites/workspace-invite/{invite_id}': {
    expect: memberAdmins(200),
    params: (c) => ({ invite_id: c.world.workspaceInvite.id }),
    body: () => ({ core_limit: 1000 }),
  },
  'DELETE /api/v2/users/invites/workspace-invite/{invite_id}': {
    expect: memberAdmins(204),
    fresh: true,
    params: (c) => ({ invite_id: c.world.workspaceInvite.id }),
  },
  'GET /api/v2/users/invites/organization/{organization_id}': { expect: readers(200) },
  'GET /api/v2/users/invites/workspace/{workspace_id}': { expect: readers(200) },

  // Custom groups (staff labels on organizations).
  'GET /api/v2/users/group/list': { expect: staffOnly(200) },
  'POST /api/v2/users/group/organization': {
    expect: staffOnly(200),
    body: (c) => ({ organization_id: c.world.organization.id, groups: ['matrix'] }),
  },

  // Clusters: readers see them; members and organization admins create; the creator and admins stop.
  'POST /api/v2/clusters/account/{account}/': {
    // A refused idle_timeout shows who got past the access checks without launching anything.
    expect: { ...readers(400), staff: 403 },
    body: () => ({ name: 'matrix', scheduler_options: { idle_timeout: 'whenever' } }),
  },
  'GET /api/v2/clusters/account/{account}/': { expect: readers(200) },
  'GET /api/v2/clusters/account/{account}/id/{pk}': {
    expect: readers(200),
    params: (c) => ({ pk: C(c).id }),
  },
  'DELETE /api/v2/clusters/account/{account}/id/{pk}': {
    expect: clusterManagers(200),
    fresh: true,
    params: (c) => ({ pk: C(c).id }),
  },
  'GET /api/v2/clusters/account/{account}/name/{name}': {
    expect: readers(200),
    params: (c) => ({ name: C(c).name }),
  },
  'GET /api/v2/clusters/account/{account}/id/{pk}/state': {
    expect: readers(200),
    params: (c) => ({ pk: C(c).id }),
  },
  'GET /api/v2/clusters/account/{account}/id/{pk}/states': {
    expect: readers(200),
    params: (c) => ({ pk: C(c).id }),
  },
  'GET /api/v2/clusters/account/{account}/id/{pk}/size': {
    expect: readers(200),
    params: (c) => ({ pk: C(c).id }),
  },
  'GET /api/v2/clusters/paginate': { expect: signedIn(200) },
  'GET /api/v2/clusters/id/{pk}/frontend': { expect: readers(200), params: (c) => ({ pk: C(c).id }) },
  'POST /api/v2/clusters/id/{cluster_id}/event': {
    expect: readers(201),
    params: (c) => ({ cluster_id: C(c).id }),
    body: () => ({ topic: 'matrix', message: 'hello', level: 20 }),
  },
  'GET /api/v2/user/workspace/{workspace}/dask-config-overrides': { expect: readers(200) },
  'GET /api/v2/clusters/paginate-notebook': { expect: signedIn(200) },
  // The SSH key opens no more than the TLS key of the details, which readers already get.
  'GET /api/v2/clusters/account/{account}/id/{pk}/ssh-key': {
    expect: readers(200),
    params: (c) => ({ pk: C(c).id }),
  },
  'POST /api/v2/clusters/account/{account}/id/{pk}/staff-has-seen': {
    expect: staffOnly(200),
    params: (c) => ({ pk: C(c).id }),
    query: () => ({ seen: 1 }),
  },
  // Who may create clusters asks for dashboard certificates (answered `error`: no ACME here).
  'POST /api/v2/clusters/account/{account}/https-certificate': {
    expect: { ...readers(200), staff: 403 },
    body: () => ({ subdomain: 'matrix-post' }),
  },
  'GET /api/v2/clusters/account/{account}/https-certificate/{subdomain}': {
    expect: readers(200),
    params: async (c) => {
      await c.ts.server.deps.db
        .insert(httpsCertificates)
        .values({ workspaceId: W(c).id, subdomain: 'matrix-get', status: 'error' })
        .onConflictDoNothing();
      return { subdomain: 'matrix-get' };
    },
  },

  // Calls instances make with their cluster's bearer token: user credentials are no such token.
  'GET /api/v2/cluster_facing/bootstrap': { expect: clusterOnly(), query: () => ({ backend_id: 'x' }) },
  'GET /api/v2/cluster_facing/agent.tar.gz': { expect: clusterOnly() },
  'GET /api/v2/cluster_facing/preload/scheduler': { expect: clusterOnly() },
  'GET /api/v2/cluster_facing/preload/worker': { expect: clusterOnly() },
  'GET /api/v2/cluster_facing/preload/no-client-shutdown': { expect: clusterOnly() },
  'GET /api/v2/cluster_facing/preload/runs': { expect: clusterOnly() },
  'GET /api/v2/cluster_facing/preload/analytics': { expect: clusterOnly() },
  'GET /api/v2/cluster_facing/instance/{backend_id}/state': {
    expect: clusterOnly(),
    params: () => ({ backend_id: 'x' }),
  },
  'PATCH /api/v2/cluster_facing/instance/phone-home/': {
    expect: clusterOnly(),
    body: () => ({ backend_id: 'x', state: 'started' }),
  },
  'PATCH /api/v2/cluster_facing/scheduler/phone-home/instance': {
    expect: clusterOnly(),
    body: () => ({ backend_id: 'x' }),
  },
  'PATCH /api/v2/cluster_facing/worker/phone-home/instance/': {
    expect: clusterOnly(),
    body: () => ({ backend_id: 'x' }),
  },
  'POST /api/v2/cluster_facing/logs': { expect: clusterOnly(), body: () => ({ backend_id: 'x', lines: [] }) },
  'GET /api/v2/cluster_facing/preload/aws-creds-loader': { expect: clusterOnly() },
  'GET /api/v2/cluster_facing/preload/aws-spot': { expect: clusterOnly() },
  'GET /api/v2/cluster_facing/preload/gcp-spot': { expect: clusterOnly() },
  'GET /api/v2/cluster_facing/worker-ips': { expect: clusterOnly() },
  'GET /api/v2/cluster_facing/scheduler/dashboard/cert': { expect: clusterOnly() },
  'GET /api/v2/cluster_facing/scheduler/jupyter': {
    expect: clusterOnly(),
    query: () => ({ backend_id: 'x' }),
  },
  'PATCH /api/v2/cluster_facing/scheduler/jupyter': {
    expect: clusterOnly(),
    body: () => ({ backend_id: 'x', address: 'http://127.0.0.1:1', ui: 'lab' }),
  },
  'GET /api/v2/cluster_facing/db-file-ref/{key}': { expect: clusterOnly(), params: () => ({ key: 'x' }) },
  'GET /api/v2/cluster_facing/pending-run-task/{instance_backend_id}': {
    expect: clusterOnly(),
    params: () => ({ instance_backend_id: 'x' }),
  },
  'GET /api/v2/cluster_facing/pending-run-tasks/{instance_backend_id}': {
    expect: clusterOnly(),
    params: () => ({ instance_backend_id: 'x' }),
  },
  'POST /api/v2/cluster_facing/run-task/{task_id}': {
    expect: clusterOnly(),
    params: () => ({ task_id: 1 }),
    body: () => ({ state: 'done' }),
  },
  'POST /api/v2/cluster_facing/next-run-task/{instance_backend_id}': {
    expect: clusterOnly(),
    params: () => ({ instance_backend_id: 'x' }),
    body: () => ({ report: null }),
  },
  'PUT /api/v2/cluster_facing/run-task/{task_id}/output': {
    expect: clusterOnly(),
    params: () => ({ task_id: 1 }),
  },

  // Batch jobs: members submit; readers see them; the creator and admins cancel.
  'GET /api/v2/jobs/': { expect: signedIn(200) },
  'POST /api/v2/jobs/': {
    expect: { ...readers(200), staff: 403 },
    body: (c) => ({ workspace: W(c).slug, user_command: 'echo matrix' }),
  },
  'POST /api/v2/jobs/compressed': {
    expect: { ...readers(200), staff: 403 },
    body: (c) => gzipSync(JSON.stringify({ workspace: W(c).slug, user_command: 'echo matrix' })),
  },
  'POST /api/v2/jobs/single-job-script/': {
    // A refused idle_timeout shows who got past the access checks without launching anything.
    expect: { ...readers(400), staff: 403 },
    body: (c) => ({
      workspace: W(c).slug,
      user_command: 'echo matrix',
      cluster: { scheduler_options: { idle_timeout: 'whenever' } },
    }),
  },
  'GET /api/v2/jobs/{job_id}': {
    expect: readers(200),
    params: async (c) => ({ job_id: (await worldJob(c)).id }),
  },
  'DELETE /api/v2/jobs/{job_id}': {
    expect: clusterManagers(200),
    params: async (c) => ({ job_id: (await worldJob(c)).id }),
  },
  'GET /api/v2/jobs/cluster/{cluster_id}': { expect: readers(200), params: (c) => ({ cluster_id: C(c).id }) },
  'GET /api/v2/jobs/{job_id}/output-files': {
    expect: readers(200),
    params: async (c) => ({ job_id: (await worldJob(c)).id }),
  },

  // Usage: every signed-in user, over what they may see.
  'GET /api/v2/usage/': {
    expect: signedIn(200),
    query: () => ({ unit: 'credits', start: '2026-01-01', end: '2026-01-31', groupby: 'user' }),
  },

  // Plans: readers see them; organization admins (and staff) change limits and plans.
  'GET /api/v2/pricing/{organization_id}': { expect: readers(200) },
  'GET /api/v2/pricing/usage/{organization_id}': { expect: readers(200) },
  'GET /api/v2/pricing/workspace/{workspace_id}/usage': { expect: readers(200) },
  'PATCH /api/v2/pricing/update/{organization_id}': {
    expect: { ...organizationAdmins(200), staff: 200 },
    body: () => ({ spend_limit_should_stop_instances: true }),
  },
  'PATCH /api/v2/pricing/update-staff/{organization_id}': { expect: staffOnly(200), body: () => ({}) },
  'POST /api/v2/pricing/downgrade-to-free/{organization_id}': {
    expect: { ...organizationAdmins(200), staff: 200 },
  },
  'POST /api/v2/pricing/upgrade-to-enterprise/{organization_id}': {
    expect: { ...organizationAdmins(200), staff: 200 },
    fresh: true,
  },
  'GET /api/v2/pricing/organization/{organization_id}/usage': {
    expect: { ...organizationAdmins(200), staff: 200 },
    query: () => ({ start_date: '2026-01-01T00:00:00Z', end_date: '2026-02-01T00:00:00Z' }),
  },
  'GET /api/v2/pricing/organization/{organization_id}/payment-method': {
    expect: { ...organizationAdmins(200), staff: 200 },
  },
  'GET /api/v2/pricing/organization/{organization_id}/payment-history': {
    expect: { ...organizationAdmins(200), staff: 200 },
  },
  'GET /api/v2/pricing/organization/{organization_id}/invoice-preview': {
    expect: { ...organizationAdmins(200), staff: 200 },
  },
  'GET /api/v2/pricing/organization/{organization_id}/billing-contact': {
    expect: { ...organizationAdmins(200), staff: 200 },
  },
  'GET /api/v2/pricing/billing-events/': { expect: signedIn(200) },
  'POST /api/v2/pricing/billing-events/': {
    expect: staffOnly(201),
    body: (c) => ({ organization_id: c.world.organization.id, detail: 'matrix note' }),
  },
  'GET /api/v2/pricing/billing-events/key/values': { expect: signedIn(200), query: () => ({ key: 'kind' }) },
  'GET /api/v1/{account}/billing-events/': { expect: readers(200) },
  'GET /api/v1/{account}/usage/cores/': { expect: readers(200) },

  // Subscriptions: this server has no Stripe keys, so admins are told billing is not configured.
  'GET /api/v2/subscriptions/subscriptions/active-subscription': {
    expect: readers(200),
    query: (c) => ({ organization_id: c.world.organization.id }),
  },
  'GET /api/v2/subscriptions/subscriptions/subscription/{subscription_id}': {
    expect: readers(200),
    params: async (c) => {
      const [row] = await c.ts.server.deps.db
        .insert(subscriptions)
        .values({
          organizationId: c.world.organization.id,
          stripeSubscriptionId: `sub_matrix_${randomBytes(6).toString('hex')}`,
          stripeCustomerId: 'cus_matrix',
          status: 'active',
          tier: 'professional',
        })
        .returning();
      return { subscription_id: row!.id };
    },
  },
  'POST /api/v2/subscriptions/subscriptions/checkout-session/{organization_id}': {
    expect: { ...organizationAdmins(400), staff: 403 },
    body: () => ({ target_tier: 'professional' }),
  },
  'POST /api/v2/subscriptions/subscriptions/billing-portal/{organization_id}': {
    expect: { ...organizationAdmins(400), staff: 403 },
  },
  'POST /api/v2/subscriptions/webhooks/stripe': { expect: everyone(400), body: () => ({}) },
  // The instance type catalogue: every signed-in user.
  'GET /api/v1/vm-types/': { expect: signedIn(200) },
  'GET /api/v2/pricing/vm-types/': { expect: signedIn(200) },

  // Cloud credentials: members read them masked; workspace and organization admins change them.
  'GET /api/v2/cloud/config/': { expect: signedIn(200) },
  'GET /api/v2/cloud-credentials/{account}/aws': { expect: readers(200) },
  'GET /api/v2/cloud-credentials/{account}/gcp': { expect: readers(200) },
  'GET /api/v2/cloud-credentials/{account}/azure': { expect: readers(200) },
  // Keys are checked with AWS before access matters: a malformed body answers 400 to anyone signed in.
  'POST /api/v2/cloud-credentials/{account}/aws': {
    expect: signedIn(400),
    body: () => ({ credentials: {} }),
  },
  'POST /api/v2/cloud-credentials/{account}/gcp': {
    expect: signedIn(400),
    body: () => ({ credentials: 'key' }),
  },
  'POST /api/v2/cloud-credentials/{account}/azure': {
    expect: memberAdmins(200),
    body: () => ({
      credentials: {
        tenant_id: '2f7d0b36-2b52-4a53-9f0a-3f5a2a1b7c11',
        client_id: '8a1c8a53-1111-4c4d-8c1f-0d8b4e7c2a22',
        client_secret: 'matrix',
      },
      subscription_id: '0b2a7f25-3333-4d5e-9a7b-1c2d3e4f5a33',
      resource_group_name: 'matrix-rg',
    }),
  },
  'DELETE /api/v2/cloud-credentials/{account}/aws': { expect: memberAdmins(200) },
  'DELETE /api/v2/cloud-credentials/{account}/gcp': { expect: memberAdmins(200) },
  'DELETE /api/v2/cloud-credentials/{account}/azure': { expect: memberAdmins(200) },
  'POST /api/v2/cloud-credentials/callback': {
    expect: signedIn(404),
    body: () => ({ attempt_id: 2_000_000_000, role_arn: 'arn:aws:iam::123456789012:role/matrix' }),
  },
  'POST /api/v2/cloud-credentials/account/{account}/check-role-assumption': {
    // No setup was started with that external id: admins hear so.
    expect: memberAdmins(400),
    body: () => ({ role_arn: 'arn:aws:iam::123456789012:role/matrix', external_id: 'never-started' }),
  },
  'POST /api/v2/cloud-credentials/account/{account}/complete-role-assumption-setup': {
    expect: memberAdmins(400),
    body: () => ({ role_arn: 'arn:aws:iam::123456789012:role/matrix', external_id: 'never-started' }),
  },
  // The test server has no AWS identity of its own to be trusted with.
  'POST /api/v2/cloud-credentials/account/{account}/start-role-assumption-setup': {
    expect: memberAdmins(409),
  },
  'POST /api/v2/cloud-credentials/account/{account}/cf-setup-attempt': { expect: memberAdmins(409) },
  'GET /api/v2/cloud-credentials/account/{account}/cf-setup-attempt/{id}': {
    expect: memberAdmins(200),
    params: async (c) => {
      const [attempt] = await c.ts.server.deps.db
        .insert(cloudSetupAttempts)
        .values({ workspaceId: W(c).id, kind: 'cloudformation', externalId: freshName() })
        .returning();
      return { id: attempt!.id };
    },
  },
  'GET /api/v2/cloud-credentials/cf-template/{id}/{signature}': {
    expect: everyone(404),
    params: () => ({ id: 1, signature: 'forged-signature' }),
  },

  // Cloud setup: members read it; workspace and organization admins change it and list the
  // account's resources (which needs the workspace's credentials: none here, hence 409).
  'GET /api/v2/setup/account/{account}/aws/global': { expect: readers(200) },
  'POST /api/v2/setup/account/{account}/aws/global': { expect: memberAdmins(409), body: () => ({}) },
  'GET /api/v2/setup/account/{account}/aws/regions': { expect: readers(200) },
  'POST /api/v2/setup/account/{account}/aws/regions': {
    expect: memberAdmins(409),
    body: () => ({ regions: [{ region: 'us-east-1' }] }),
  },
  'DELETE /api/v2/setup/account/{account}/aws/region': {
    expect: memberAdmins(404),
    query: () => ({ id: 2_000_000_000 }),
  },
  'DELETE /api/v2/setup/account/{account}/aws': { expect: memberAdmins(200) },
  'GET /api/v2/setup/account/{account}/aws/settings': { expect: readers(200) },
  'PATCH /api/v2/setup/account/{account}/aws/settings': {
    expect: memberAdmins(200),
    body: () => ({ spot: true }),
  },
  'GET /api/v2/setup/account/{account}/aws/available-vpcs/{region}': {
    expect: memberAdmins(409),
    params: () => ({ region: 'us-east-1' }),
  },
  'GET /api/v2/setup/account/{account}/aws/available-azs': {
    expect: memberAdmins(409),
    query: () => ({ region: 'us-east-1' }),
  },
  'GET /api/v2/setup/account/{account}/aws/available-subnets': {
    expect: memberAdmins(409),
    query: () => ({ region: 'us-east-1' }),
  },
  'GET /api/v2/setup/account/{account}/aws/available-security-groups': {
    expect: memberAdmins(409),
    query: () => ({ region: 'us-east-1' }),
  },
  'GET /api/v2/setup/account/{account}/gcp/global': { expect: readers(200) },
  'POST /api/v2/setup/account/{account}/gcp/global': { expect: memberAdmins(409), body: () => ({}) },
  'GET /api/v2/setup/account/{account}/gcp/regions': { expect: readers(200) },
  'POST /api/v2/setup/account/{account}/gcp/regions': {
    expect: memberAdmins(409),
    body: () => ({ regions: [{ region: 'us-east1' }] }),
  },
  'DELETE /api/v2/setup/account/{account}/gcp/region': {
    expect: memberAdmins(404),
    query: () => ({ id: 2_000_000_000 }),
  },
  'DELETE /api/v2/setup/account/{account}/gcp': { expect: memberAdmins(200) },
  'GET /api/v2/setup/account/{account}/gcp/settings': { expect: readers(200) },
  'PATCH /api/v2/setup/account/{account}/gcp/settings': {
    expect: memberAdmins(200),
    body: () => ({ spot: true }),
  },
  'GET /api/v2/setup/account/{account}/gcp/available-networks': { expect: memberAdmins(200) },
  'GET /api/v2/setup/account/{account}/gcp/available-subnets': { expect: memberAdmins(200) },
  'GET /api/v2/setup/account/{account}/gcp/available-target-tags': { expect: memberAdmins(200) },
  // SSH hosts: readers see them; admins register (here one nothing answers on: refused with why), check, remove.
  'GET /api/v2/ssh-hosts/{account}': { expect: readers(200) },
  'POST /api/v2/ssh-hosts/{account}': {
    expect: memberAdmins(400),
    body: () => ({
      name: 'matrix',
      address: '127.0.0.1',
      port: 1,
      user: 'matrix',
      host_key: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIMatrixMatrixMatrixMatrixMatrixMatrixMatrixMa',
      private_key: '-----BEGIN OPENSSH PRIVATE KEY-----\nmatrix\n-----END OPENSSH PRIVATE KEY-----\n',
      cores: 1,
      memory_mib: 1024,
    }),
  },
  'POST /api/v2/ssh-hosts/{account}/{host}/check': {
    expect: memberAdmins(404),
    params: () => ({ host: 2_000_000 }),
  },
  'DELETE /api/v2/ssh-hosts/{account}/{host}': {
    expect: memberAdmins(404),
    params: () => ({ host: 2_000_000 }),
  },
  // Slurm clusters: readers see them; admins connect (here from this machine, which the test server
  // does not allow: refused with why), check, replace slurmrestd's token, disconnect.
  'GET /api/v2/slurm-clusters/{account}': { expect: readers(200) },
  'POST /api/v2/slurm-clusters/{account}': {
    expect: memberAdmins(400),
    body: () => ({ name: 'matrix', login: 'local', node_cores: 1, node_memory_mib: 1024 }),
  },
  'POST /api/v2/slurm-clusters/{account}/{cluster}/check': {
    expect: memberAdmins(404),
    params: () => ({ cluster: 2_000_000 }),
  },
  'DELETE /api/v2/slurm-clusters/{account}/{cluster}': {
    expect: memberAdmins(404),
    params: () => ({ cluster: 2_000_000 }),
  },
  'PUT /api/v2/slurm-clusters/{account}/{cluster}/token': {
    expect: memberAdmins(404),
    params: () => ({ cluster: 2_000_000 }),
    body: () => ({ token: 'eyJhbGciOiJIUzI1NiJ9.eyJzdW4iOiJ4In0.c2lnbmF0dXJl' }),
  },
  'GET /api/v2/setup/account/{account}/docker': { expect: readers(200) },
  'PATCH /api/v2/setup/account/{account}/docker': {
    expect: memberAdmins(200),
    body: () => ({ username: 'matrix' }),
  },

  // Filestores: members create and fill them, readers read them; syncs are the instances' to report.
  'POST /api/v2/filestore/list': {
    expect: { ...readers(200), staff: 403 },
    body: (c) => ({ names: ['matrix'], workspace: W(c).slug }),
  },
  'GET /api/v2/filestore/name/{name}': {
    expect: readers(200),
    params: () => ({ name: 'matrix' }),
    query: (c) => ({ workspace: W(c).slug }),
  },
  'GET /api/v2/filestore/cluster/{cluster_id}': {
    expect: readers(200),
    params: (c) => ({ cluster_id: C(c).id }),
  },
  'GET /api/v2/filestore/vm/{vm_role}': {
    expect: { ...everyone(403), anonymous: 401 },
    params: () => ({ vm_role: 'worker' }),
  },
  'POST /api/v2/filestore/attach': {
    expect: clusterManagers(200),
    body: async (c) => ({
      cluster_id: C(c).id,
      attachments: [{ id: (await worldStore(c)).id, input: true }],
    }),
  },
  'POST /api/v2/filestore/fs/{fs_id}/status/{action}': {
    expect: { ...everyone(403), anonymous: 401 },
    params: async (c) => ({ fs_id: (await worldStore(c)).id, action: 'start' }),
  },
  'POST /api/v2/filestore/fs/{fs_id}/signed-urls/{direction}': {
    expect: { ...readers(200), staff: 403 },
    params: async (c) => ({ fs_id: (await worldStore(c)).id, direction: 'upload' }),
    body: () => ({ paths: ['a.txt'] }),
  },
  'GET /api/v2/filestore/fs/{fs_id}/download-with-urls': {
    expect: readers(200),
    params: async (c) => ({ fs_id: (await worldStore(c)).id }),
  },
  'POST /api/v2/filestore/fs/{fs_id}/clear': {
    expect: { ...readers(200), staff: 403 },
    params: async (c) => ({ fs_id: (await worldStore(c)).id }),
  },
  // The signed link is the credential: whoever holds it, nobody without it.
  'GET /api/v2/filestore/blob/{fs_id}/download': {
    expect: everyone(200),
    params: async (c) => ({ fs_id: await storeOf(c) }),
    query: (c) => linkQuery(c, storeIds.get(c)!, 'download'),
  },
  'PUT /api/v2/filestore/blob/{fs_id}/upload': {
    expect: everyone(200),
    params: async (c) => ({ fs_id: await storeOf(c) }),
    query: (c) => linkQuery(c, storeIds.get(c)!, 'upload'),
    body: () => 'b',
  },
  'GET /api/v2/jobs/{job_id}/tasks/{array_task_id}/output': {
    expect: readers(200),
    params: async (c) => ({ job_id: (await worldJob(c)).id, array_task_id: 0 }),
  },

  // Workers: readers list them; the creator and admins scale (here by nothing, to change nothing).
  'GET /api/v2/workers/account/{account}/cluster/{cluster}/': {
    expect: readers(200),
    params: (c) => ({ cluster: C(c).id }),
  },
  'POST /api/v2/workers/account/{account}/cluster/{cluster}/': {
    expect: clusterManagers(201),
    params: (c) => ({ cluster: C(c).id }),
    body: () => ({ n_workers: 0 }),
  },
  'DELETE /api/v2/workers/account/{account}/cluster/{cluster}/': {
    expect: clusterManagers(200),
    params: (c) => ({ cluster: C(c).id }),
    query: () => ({ name: '-no-such-worker' }),
  },
  'GET /api/v2/workers/account/{account}/id/{pk}': {
    expect: readers(200),
    params: async (c) => ({ pk: (await worldWorker(c)).processId }),
  },

  // Instances and logs: readers.
  'GET /api/v2/instances/{account}/': { expect: readers(200) },
  'GET /api/v2/instances/{account}/id/{pk}': {
    expect: readers(200),
    params: async (c) => ({ pk: (await worldWorker(c)).id }),
  },
  'GET /api/v2/instances/{account}/id/{instance_id}/logs': {
    expect: readers(200),
    params: async (c) => ({ instance_id: (await worldWorker(c)).id }),
  },
  'GET /api/v2/instances/{account}/instance/{instance_name}/logs': {
    expect: readers(200),
    params: async (c) => ({ instance_name: (await worldWorker(c)).name }),
  },
  'GET /api/v2/logs/instance/{pk}': {
    expect: readers(200),
    params: async (c) => ({ pk: (await worldWorker(c)).id }),
  },
  'GET /api/v2/logs/cluster/{pk}/init': { expect: readers(200), params: (c) => ({ pk: C(c).id }) },
  'POST /api/v2/logs/cluster/{pk}/page/': {
    expect: readers(200),
    params: (c) => ({ pk: C(c).id }),
    body: () => ({ page_size: 10 }),
  },
  'GET /api/v2/logs/cluster/{pk}/page/{encoded_session}': {
    expect: readers(200),
    params: async (c) => {
      const started = await c.ts.api.as(c.cast.member.key).post(`/api/v2/logs/cluster/${C(c).id}/page/`, {});
      return { pk: C(c).id, encoded_session: started.body.next };
    },
  },
  'GET /api/v1/{account}/backend_options/': { expect: readers(200) },
  'GET /api/v2/instance_specs/account/{account}/': { expect: readers(200) },
  'GET /api/v2/instance_specs/account/{account}/id/{pk}': {
    expect: readers(200),
    params: async (c) => ({ pk: (await worldSpec(c)).id }),
  },
  'GET /api/v2/clusters/account/{account}/id/{pk}/better-logs': {
    expect: readers(200),
    params: (c) => ({ pk: C(c).id }),
  },
  'GET /api/v2/clusters/account/{account}/id/{pk}/logs': {
    expect: readers(200),
    params: (c) => ({ pk: C(c).id }),
  },
  'GET /api/v2/clusters/account/{account}/id/{pk}/log-info': {
    expect: readers(200),
    params: (c) => ({ pk: C(c).id }),
  },
  'GET /api/v2/clusters/account/{account}/id/{pk}/infra-events-log': {
    expect: readers(200),
    params: (c) => ({ pk: C(c).id }),
  },
  'GET /api/v2/clusters/account/{account}/id/{pk}/alerts': {
    expect: readers(200),
    params: (c) => ({ pk: C(c).id }),
  },

  // Analytics: the scheduler reports with its cluster's token; users read and set desired state.
  'POST /api/v2/analytics/register': { expect: clusterOnly(), body: () => ({ scheduler_id: 'x' }) },
  'POST /api/v2/analytics/events': { expect: clusterOnly(), body: () => ({ events: [] }) },
  'POST /api/v2/analytics/close': { expect: clusterOnly(), body: () => ({}) },
  'GET /api/v2/analytics/{account}/clusters/list': { expect: readers(200) },
  'POST /api/v2/analytics/metrics': { expect: clusterOnly(), body: () => ({ ident: 'x' }) },
  'POST /api/v2/analytics/metrics-compress': { expect: clusterOnly() },
  'POST /api/v2/analytics/profile': { expect: clusterOnly(), body: () => ({ ident: 'x', profile: {} }) },
  'POST /api/v2/analytics/span/{span_identifier}': {
    expect: clusterOnly(),
    params: () => ({ span_identifier: 'x' }),
    body: () => ({}),
  },
  'GET /api/v2/analytics/preload': { expect: clusterOnly() },
  // Analytics reads: the workspace's readers, as for its clusters.
  'POST /api/v2/analytics/{account}/cluster/{cluster}/span/{span_identifier}': {
    // Posting the same span again only updates it; staff read analytics but write none.
    expect: { ...readers(200), staff: 403 },
    params: (c) => ({ cluster: C(c).id, span_identifier: 'matrix' }),
    body: () => ({ name: 'matrix' }),
  },
  'GET /api/v2/analytics/{account}/cluster/{cluster}': {
    expect: readers(200),
    params: (c) => ({ cluster: C(c).id }),
  },
  'GET /api/v2/analytics/{account}/cluster/{cluster}/timeseries': {
    expect: readers(200),
    params: (c) => ({ cluster: C(c).id }),
  },
  'GET /api/v2/analytics/{account}/cluster/{cluster_id}/summary': {
    expect: readers(200),
    params: (c) => ({ cluster_id: C(c).id }),
  },
  'GET /api/v2/analytics/{account}/dask/{dask_scheduler}/summary': {
    expect: readers(200),
    params: async (c) => ({ dask_scheduler: await worldScheduler(c) }),
  },
  'GET /api/v2/analytics/{account}/dask/{dask_scheduler}/timeseries': {
    expect: readers(200),
    params: async (c) => ({ dask_scheduler: await worldScheduler(c) }),
  },
  'GET /api/v2/analytics/{account}/cluster/{cluster}/spans': {
    expect: readers(200),
    params: (c) => ({ cluster: C(c).id }),
  },
  'GET /api/v2/analytics/{account}/{scheduler_id}/computations/list': {
    expect: readers(200),
    params: async (c) => ({ scheduler_id: await worldScheduler(c) }),
  },
  'GET /api/v2/analytics/{account}/cluster/{cluster}/computations/list': {
    expect: readers(200),
    params: (c) => ({ cluster: C(c).id }),
  },
  'GET /api/v2/analytics/{account}/cluster/{cluster}/computations/{computation}': {
    expect: readers(200),
    params: async (c) => ({ cluster: C(c).id, computation: await worldComputation(c) }),
  },
  'GET /api/v2/analytics/{account}/cluster/{cluster}/progress': {
    expect: readers(200),
    params: (c) => ({ cluster: C(c).id }),
  },
  'GET /api/v2/analytics/{account}/{cluster}/events/list': {
    expect: readers(200),
    params: (c) => ({ cluster: C(c).id }),
  },
  'GET /api/v2/analytics/{account}/exceptions/list': { expect: readers(200) },
  'POST /api/v2/analytics/{account}/{cluster}/desired-state': {
    // Asking a running cluster to run changes nothing.
    expect: clusterManagers(200),
    params: (c) => ({ cluster: C(c).id }),
    body: () => ({ desired_status: 'running' }),
  },

  // Metrics: readers; the series also answer a signed link without credentials (metrics-api.test.ts).
  'GET /api/v2/metrics/account/{account}/cluster/{pk}': {
    expect: readers(200),
    params: (c) => ({ pk: C(c).id }),
  },
  'GET /api/v2/metrics/account/{account}/cluster/{pk}/value': {
    expect: readers(200),
    params: (c) => ({ pk: C(c).id }),
    query: () => ({ query: 'workers', over_time: 'max' }),
  },
  'GET /api/v2/metrics/account/{account}/cluster/{pk}/debug-stuff': {
    expect: readers(200),
    params: (c) => ({ pk: C(c).id }),
  },
  'GET /api/v2/metrics/account/{account}/id/{pk}/summary-metrics': {
    expect: readers(200),
    params: (c) => ({ pk: C(c).id }),
  },
  'GET /api/v2/metrics/account/{account}/adhoc': {
    expect: readers(200),
    query: () => ({ name: 'matrix', query: 'workers', over_time: 'max' }),
  },

  // Software environments: readers read, members (and organization admins) create; the creator
  // and admins delete. Approximating a scan needs no credentials; uploads carry a signed link.
  'POST /api/v2/software-environment/account/{account}': {
    expect: { ...readers(201), staff: 403 },
    body: () => ({ name: freshName(), container: 'matrix/image:1' }),
  },
  'POST /api/v2/software-environment/account/{account}/package-upload': {
    expect: { ...readers(200), staff: 403 },
    body: () => ({
      name: 'matrix-2.0-py3-none-any.whl',
      md5: 'x',
      wheel_md5: randomBytes(16).toString('base64'),
    }),
  },
  'GET /api/v2/software-environment/account/{account}/alias': { expect: readers(200) },
  'GET /api/v2/software-environment/account/{account}/alias/name/{name}': {
    expect: readers(200),
    params: async (c) => ({ name: (await worldSoftware(c)).alias.name }),
  },
  'DELETE /api/v2/software-environment/account/{account}/alias/name/{name}': {
    expect: clusterManagers(200),
    params: async (c) => ({ name: (await worldSoftware(c)).alias.name }),
  },
  'GET /api/v2/software-environment/account/{account}/alias/id/{pk}': {
    expect: readers(200),
    params: async (c) => ({ pk: (await worldSoftware(c)).alias.id }),
  },
  'GET /api/v2/software-environment/account/{account}/alias/id/{id}/builds': {
    expect: readers(200),
    params: async (c) => ({ id: (await worldSoftware(c)).alias.id }),
  },
  'GET /api/v2/software-environment/account/{account}/alias/{pk}/specs': {
    expect: readers(200),
    params: async (c) => ({ pk: (await worldSoftware(c)).alias.id }),
  },
  'GET /api/v2/software-environment/account/{account}/spec/{pk}': {
    expect: readers(200),
    params: async (c) => ({ pk: (await worldSoftware(c)).spec.id }),
  },
  'GET /api/v2/software-environment/account/{account}/spec/{id}/builds': {
    expect: readers(200),
    params: async (c) => ({ id: (await worldSoftware(c)).spec.id }),
  },
  'GET /api/v2/software-environment/account/{account}/spec-yaml/{id}': {
    expect: readers(200),
    params: async (c) => ({ id: (await worldSoftware(c)).spec.id }),
  },
  'GET /api/v2/software-environment/account/{account}/build/{id}': {
    expect: readers(200),
    params: async (c) => ({ id: (await worldSoftware(c)).build.id }),
  },
  'GET /api/v2/software-environment/account/{account}/build/logs/{id}': {
    expect: readers(200),
    params: async (c) => ({ id: (await worldSoftware(c)).build.id }),
  },
  'GET /api/v2/software-environment/account/{account}/build/{id}/lockfile': {
    expect: readers(200),
    params: async (c) => ({ id: (await worldSoftware(c)).build.id }),
  },
  'GET /api/v2/software-environment/alias': { expect: signedIn(200) },
  'GET /api/v2/software-environment/values': {
    expect: signedIn(200),
    query: () => ({ key: 'name', starts_with: 'a' }),
  },
  'POST /api/v2/software-environment/approximate-packages': {
    expect: everyone(200),
    body: () => ({ packages: [{ name: 'six', version: '1.16.0', source: 'pip' }] }),
  },
  'GET /api/v2/packages/': { expect: signedIn(200) },
  'GET /api/v2/packages/index/{account}/simple/': { expect: readers(200) },
  'GET /api/v2/packages/index/{account}/simple/{project}/': {
    expect: readers(200),
    params: async (c) => ({ project: (await worldSoftware(c)).file.project }),
  },
  'GET /api/v2/packages/index/{account}/files/{id}/{file_name}': {
    expect: readers(200),
    params: async (c) => {
      const { file } = await worldSoftware(c);
      return { id: file.id, file_name: file.fileName };
    },
  },
  'GET /api/v2/packages/cache': { expect: signedIn(200) },
  'GET /api/v2/packages/cache/invalidate': { expect: signedIn(200) },
  'GET /api/v2/packages/cache/flush': { expect: staffOnly(200) },
  // A build machine's calls take that build's token; no user credential is one.
  'GET /api/v2/cluster_facing/software-environment/spec': { expect: clusterOnly() },
  'GET /api/v2/cluster_facing/software-environment/build/{build}/spec': {
    expect: clusterOnly(),
    params: async (c) => ({ build: (await worldSoftware(c)).build.id }),
  },
  'PATCH /api/v2/cluster_facing/software-environment/build/{build}': {
    expect: clusterOnly(),
    params: async (c) => ({ build: (await worldSoftware(c)).build.id }),
    body: () => ({ state: 'error', reason: 'matrix' }),
  },
  'POST /api/v2/cluster_facing/software-environment/build/{build}/start-upload': {
    expect: clusterOnly(),
    params: async (c) => ({ build: (await worldSoftware(c)).build.id }),
  },
  'GET /api/v2/cluster_facing/software-environment/build/{build}/download': {
    expect: clusterOnly(),
    params: async (c) => ({ build: (await worldSoftware(c)).build.id }),
  },
  'PUT /api/v2/cluster_facing/software-environment/build/{build}/archive': {
    expect: everyone(403),
    params: async (c) => ({ build: (await worldSoftware(c)).build.id }),
    query: () => ({ expires: 4_000_000_000, signature: 'forged' }),
  },
  'PUT /api/v2/software-environment/upload/{id}': {
    // Without a valid signature nobody stores anything, whoever they are.
    expect: everyone(403),
    params: async (c) => ({ id: (await worldSoftware(c)).file.id }),
    query: () => ({ expires: 4_000_000_000, signature: 'forged' }),
  },

  // Linking a provider identity by a mailed link (sign-in.test.ts mails and opens real ones).
  'POST /api/v2/user/identities/link-email': { expect: everyone(400) },
  'POST /api/v2/user/identities/link-check': {
    expect: everyone(400),
    body: () => ({ token: randomBytes(24).toString('hex') }),
  },
  'POST /api/v2/user/identities/link-confirm': {
    expect: everyone(400),
    body: () => ({ token: randomBytes(24).toString('hex') }),
  },

  // An organization's own SSO (organization-sso.test.ts signs in through a real one).
  'GET /api/v2/users/organizations/sso/{organization_id}': { expect: organizationAdmins(200) },
  'PUT /api/v2/users/organizations/sso/{organization_id}/connection': {
    expect: organizationAdmins(200),
    body: () => ({
      issuer: 'https://idp.example.com',
      client_id: 'matrix',
      client_secret: 'matrix-secret',
      join_workspace_ids: [],
    }),
  },
  'PUT /api/v2/users/organizations/sso/{organization_id}/require': {
    expect: organizationAdmins(200),
    body: () => ({ require_sso: false }),
  },
  'POST /api/v2/users/organizations/sso/{organization_id}/domains': {
    expect: organizationAdmins(201),
    body: () => ({ domain: `${freshName()}.example.com` }),
  },
  'POST /api/v2/users/organizations/sso/{organization_id}/domains/{domain_id}/verify': {
    expect: organizationAdmins(200),
    params: async (c) => ({ domain_id: (await worldSsoDomain(c, true)).id }),
  },
  'DELETE /api/v2/users/organizations/sso/{organization_id}/domains/{domain_id}': {
    expect: organizationAdmins(204),
    params: async (c) => ({ domain_id: (await worldSsoDomain(c, false)).id }),
  },
  'GET /api/v2/staff/sso-domains': { expect: staffOnly(200) },
  'POST /api/v2/staff/sso-domains/{domain_id}/verify': {
    expect: staffOnly(200),
    params: async (c) => ({ domain_id: (await worldSsoDomain(c, false)).id }),
  },

  // What vm_aws's machines fetch: a cluster's environment, a build machine's agent.
  'GET /api/v2/cluster_facing/environment.tar.gz': { expect: clusterOnly() },
  // A container image's registry login (its cluster's own registry alone).
  'GET /api/v2/cluster_facing/registry-auth.json': { expect: clusterOnly() },
  'GET /api/v2/cluster_facing/software-environment/agent.tar.gz': { expect: clusterOnly() },
};
