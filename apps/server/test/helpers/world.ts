import type {
  Cluster,
  Organization,
  OrganizationInvite,
  OrganizationMembership,
  User,
  Workspace,
  WorkspaceInvite,
  WorkspaceMembership,
} from '../../src/db/schema/index.js';
import {
  addMember,
  createBareUser,
  createClusterRow,
  createInviteRow,
  createOrganization,
  createUser,
  createWorkspace,
  type TestUser,
} from './factories.js';
import type { TestServer } from './server.js';

/** The callers the authorization matrix tries every route as. */
export const ROLES = [
  'anonymous',
  'outsider',
  'member',
  'workspaceAdmin',
  'organizationAdmin',
  'staff',
] as const;
export type Role = (typeof ROLES)[number];
export type Cast = Record<Exclude<Role, 'anonymous'>, TestUser>;

export async function createCast(ts: TestServer): Promise<Cast> {
  return {
    outsider: await createUser(ts),
    member: await createUser(ts),
    workspaceAdmin: await createUser(ts),
    organizationAdmin: await createUser(ts),
    staff: await createUser(ts, { staff: true }),
  };
}

/**
 * An organization with one workspace where the cast stands as its names say (the outsider and
 * staff belong nowhere), plus a plain member, a pending invite and a cluster for calls to act upon.
 */
export interface World {
  organization: Organization;
  workspace: Workspace;
  target: User;
  targetMembership: OrganizationMembership;
  targetWorkspaceMembership: WorkspaceMembership;
  invite: OrganizationInvite;
  /** The token of the pending invite's mailed link. */
  inviteToken: string;
  workspaceInvite: WorkspaceInvite;
  /** A running cluster of the workspace, created by `target` (a plain member). */
  cluster: Cluster;
}

export async function seedWorld(ts: TestServer, cast: Cast): Promise<World> {
  const organization = await createOrganization(ts, cast.organizationAdmin);
  const workspace = await createWorkspace(ts, organization);
  await addMember(ts, cast.organizationAdmin, organization, {
    role: 'admin',
    workspaces: [{ workspace, isAdmin: true }],
  });
  await addMember(ts, cast.member, organization, { workspaces: [{ workspace }] });
  await addMember(ts, cast.workspaceAdmin, organization, { workspaces: [{ workspace, isAdmin: true }] });
  const target = await createBareUser(ts);
  const added = await addMember(ts, target, organization, { workspaces: [{ workspace }] });
  const { invite, workspaceInvites, token } = await createInviteRow(ts, organization, {
    workspaces: [{ workspace }],
  });
  return {
    organization,
    workspace,
    target,
    targetMembership: added.membership,
    targetWorkspaceMembership: added.workspaceMemberships[0]!,
    invite,
    inviteToken: token,
    workspaceInvite: workspaceInvites[0]!,
    cluster: await createClusterRow(ts, workspace, target),
  };
}
