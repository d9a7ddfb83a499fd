import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import {
  type Cluster,
  clusterProcesses,
  clusters,
  instances,
  type Organization,
  type OrganizationInvite,
  type OrganizationMembership,
  organizationInvites,
  organizationMemberships,
  organizations,
  plans,
  type User,
  users,
  type Workspace,
  type WorkspaceInvite,
  type WorkspaceMembership,
  workspaceInvites,
  workspaceMemberships,
  workspaces,
} from '../../src/db/schema/index.js';
import { TIER_LIMITS } from '../../src/domains/billing/plans/tiers.js';
import { findUserBy, login, register } from '../../src/domains/identity/auth/service.js';
import { mintInviteToken } from '../../src/domains/identity/invites/token.js';
import { sha256 } from '../../src/lib/crypto.js';
import type { TestServer } from './server.js';

let counter = 0;
/** A name no other test (or parallel test file on a shared database) uses. */
export const uniq = (prefix = 'u') =>
  `${prefix}${Date.now().toString(36)}${(counter++).toString(36)}${randomBytes(3).toString('hex')}`;

export interface TestUser {
  id: number;
  username: string;
  email: string;
  password: string;
  /** A session key, as login returns. */
  key: string;
}

export const PASSWORD = 'Sturdy-passphrase-42';

/** Registers through the real service, marks the email verified and signs in. */
export async function createUser(
  ts: TestServer,
  options: { staff?: boolean; verified?: boolean; username?: string } = {},
): Promise<TestUser> {
  const { deps } = ts.server;
  const username = options.username ?? uniq();
  const email = `${username}@example.com`;
  await register(deps, {
    username,
    email,
    password1: PASSWORD,
    password2: PASSWORD,
    full_name: `Test ${username}`,
    preferred_name: '',
  });
  const user = (await findUserBy(deps.db, 'username', username))!;
  await deps.db
    .update(users)
    .set({
      isStaff: options.staff ?? false,
      emailVerifiedAt: options.verified === false ? null : new Date(),
    })
    .where(eq(users.id, user.id));
  const key =
    options.verified === false
      ? ''
      : await login(deps.db, { username, password: PASSWORD, ip: '10.255.0.1' });
  return { id: user.id, username, email, password: PASSWORD, key };
}

/** A user row without password or session, for people who are only acted upon (members, targets). */
export async function createBareUser(ts: TestServer, options: { email?: string } = {}): Promise<User> {
  const username = uniq('bare');
  const [user] = await ts.server.deps.db
    .insert(users)
    .values({ username, email: options.email ?? `${username}@example.com`, emailVerifiedAt: new Date() })
    .returning();
  return user!;
}

/** A shared organization administered by `admin` (written directly: the API is tested elsewhere). */
export async function createOrganization(
  ts: TestServer,
  admin: { id: number },
  options: { name?: string; memberLimit?: number | null; workspaceLimit?: number | null } = {},
): Promise<Organization> {
  const { db } = ts.server.deps;
  const [organization] = await db
    .insert(organizations)
    .values({ name: options.name ?? uniq('org') })
    .returning();
  await db.insert(plans).values({
    organizationId: organization!.id,
    tier: 'free',
    ...TIER_LIMITS.free,
    ...(options.memberLimit !== undefined && { memberLimit: options.memberLimit }),
    ...(options.workspaceLimit !== undefined && { workspaceLimit: options.workspaceLimit }),
  });
  await db
    .insert(organizationMemberships)
    .values({ organizationId: organization!.id, userId: admin.id, role: 'admin' });
  return organization!;
}

export async function createWorkspace(
  ts: TestServer,
  organization: { id: number },
  options: { name?: string } = {},
): Promise<Workspace> {
  const name = options.name ?? uniq('ws');
  const [account] = await ts.server.deps.db
    .insert(workspaces)
    .values({ name, slug: name.toLowerCase(), organizationId: organization.id })
    .returning();
  return account!;
}

export interface WorkspaceGrant {
  workspace: { id: number };
  isAdmin?: boolean;
  coreLimit?: number;
  creditLimit?: number;
}

/** Makes `user` a member of the organization (and of the given workspaces). */
export async function addMember(
  ts: TestServer,
  user: { id: number },
  organization: { id: number },
  options: { role?: 'admin' | 'member'; workspaces?: WorkspaceGrant[] } = {},
): Promise<{ membership: OrganizationMembership; workspaceMemberships: WorkspaceMembership[] }> {
  const { db } = ts.server.deps;
  const [membership] = await db
    .insert(organizationMemberships)
    .values({ organizationId: organization.id, userId: user.id, role: options.role ?? 'member' })
    .onConflictDoUpdate({
      target: [organizationMemberships.organizationId, organizationMemberships.userId],
      set: { role: options.role ?? 'member' },
    })
    .returning();
  const grants = options.workspaces ?? [];
  const memberships =
    grants.length === 0
      ? []
      : await db
          .insert(workspaceMemberships)
          .values(
            grants.map((g) => ({
              workspaceId: g.workspace.id,
              userId: user.id,
              isAdmin: g.isAdmin ?? false,
              ...(g.coreLimit !== undefined && { coreLimit: g.coreLimit }),
              ...(g.creditLimit !== undefined && { creditLimit: g.creditLimit }),
            })),
          )
          .returning();
  return { membership: membership!, workspaceMemberships: memberships };
}

/** A pending invitation of a new address, written directly (the mail path is tested elsewhere). */
export async function createInviteRow(
  ts: TestServer,
  organization: { id: number },
  options: { email?: string; workspaces?: WorkspaceGrant[]; expiresInMs?: number } = {},
): Promise<{ invite: OrganizationInvite; workspaceInvites: WorkspaceInvite[]; token: string }> {
  const { db } = ts.server.deps;
  const { token, tokenHash } = mintInviteToken();
  const [invite] = await db
    .insert(organizationInvites)
    .values({
      organizationId: organization.id,
      email: options.email ?? `${uniq('invitee')}@example.com`,
      expiration: new Date(Date.now() + (options.expiresInMs ?? 86_400_000)),
      tokenHash,
    })
    .returning();
  const grants = options.workspaces ?? [];
  const rows =
    grants.length === 0
      ? []
      : await db
          .insert(workspaceInvites)
          .values(
            grants.map((g) => ({
              organizationInviteId: invite!.id,
              workspaceId: g.workspace.id,
              isAdmin: g.isAdmin ?? false,
            })),
          )
          .returning();
  return { invite: invite!, workspaceInvites: rows, token };
}

/**
 * A cluster row with one started worker (never launched) that looks running to the API but that
 * the control loop leaves alone, for calls that only read or stop it. Real clusters are created
 * through the API.
 */
export async function createClusterRow(
  ts: TestServer,
  workspace: { id: number },
  creator: { id: number },
  options: { name?: string; state?: 'ready' | 'stopped' } = {},
): Promise<Cluster> {
  const { db, secrets } = ts.server.deps;
  const token = randomBytes(16).toString('hex');
  const [cluster] = await db
    .insert(clusters)
    .values({
      workspaceId: workspace.id,
      creatorId: creator.id,
      name: options.name ?? uniq('cluster'),
      backendType: 'in_process',
      desiredState: options.state === 'stopped' ? 'stopped' : 'ready',
      state: options.state ?? 'ready',
      infraState: 'created',
      desiredWorkers: 1,
      idleTimeoutSeconds: 1200,
      tokenHash: sha256(token),
      tokenBox: secrets.encrypt(token),
      tlsCert: 'not a certificate',
      tlsKeyBox: secrets.encrypt('not a key'),
      reconcileAt: null,
    })
    .returning();
  const name = `${cluster!.name}-worker-0123456789`;
  const [worker] = await db
    .insert(clusterProcesses)
    .values({ clusterId: cluster!.id, role: 'worker', name, state: 'started' })
    .returning();
  await db.insert(instances).values({
    clusterId: cluster!.id,
    processId: worker!.id,
    role: 'worker',
    name,
    backendType: 'in_process',
    backendId: `local-${randomBytes(8).toString('hex')}`,
    state: 'ready',
  });
  return cluster!;
}
