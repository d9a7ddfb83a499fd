import {
  addMember,
  createClusterRow,
  createOrganization,
  createUser,
  createWorkspace,
  type TestUser,
} from './factories.js';
import type { TestServer } from './server.js';

/**
 * What the analytics tests start from: a workspace with a member (who created the cluster), an
 * outsider, the cluster's bearer token (what its scheduler reports with), and the workspace's
 * analytics path `/api/v2/analytics/<slug>`.
 */
export async function analyticsWorld(ts: TestServer) {
  const admin = await createUser(ts);
  const organization = await createOrganization(ts, admin);
  const workspace = await createWorkspace(ts, organization);
  const [member, outsider] = [await createUser(ts), await createUser(ts)] as [TestUser, TestUser];
  await addMember(ts, member, organization, { workspaces: [{ workspace }] });
  const cluster = await createClusterRow(ts, workspace, member);
  const token = ts.server.deps.secrets.decrypt(cluster.tokenBox);
  const base = `/api/v2/analytics/${workspace.slug}`;
  return { workspace, member, outsider, cluster, token, base, asMember: ts.api.as(member.key) };
}
