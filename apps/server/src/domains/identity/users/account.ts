import { and, desc, eq, gt } from 'drizzle-orm';
import type { Config } from '../../../config.js';
import type { Db } from '../../../db/client.js';
import { type User, users, workspaceMemberships, workspaces } from '../../../db/schema/index.js';
import { fieldError } from '../../../http/errors.js';
import type { z } from '../../../http/zod.js';
import type { WorkspaceAccess } from '../access/workspace.js';
import type {
  accountPublicSchema,
  hostedApprovalSchema,
  hostedStandingSchema,
  prometheusCredentialsSchema,
  registryBody,
  registrySchema,
} from './schemas.js';

const packageIndexUrl = (config: Config, slug: string) =>
  `${config.publicUrl}/api/v2/packages/index/${encodeURIComponent(slug)}/simple/`;

/**
 * `user/account/{ws}/registry`: a cloud platform pushes environments to a container registry; this
 * server keeps them itself (virtual environments in its data directory, wheels in the workspace's
 * package index), so the answer is always `local`.
 */
export function accountRegistry(config: Config, access: WorkspaceAccess): z.infer<typeof registrySchema> {
  return {
    type: 'local',
    uri: null,
    package_index_url: packageIndexUrl(config, access.workspace.slug),
    detail:
      'Software environments of this workspace are built and kept by this Cumulus server, and its ' +
      'wheels are served from its own package index; no container registry is used.',
  };
}

/** POST registry: `local` is what there is; another registry is refused by name, writing nothing. */
export function setAccountRegistry(
  config: Config,
  access: WorkspaceAccess,
  body: z.infer<typeof registryBody>,
): z.infer<typeof registrySchema> {
  if (body.type !== 'local')
    throw fieldError(
      'type',
      `This server builds no container images, so it cannot use a ${body.type} registry: software ` +
        'environments are kept by the server itself (type "local").',
    );
  return accountRegistry(config, access);
}

export const accountPublic = ({
  workspace,
  organization,
}: WorkspaceAccess): z.infer<typeof accountPublicSchema> => ({
  id: workspace.id,
  slug: workspace.slug,
  name: workspace.name,
  avatar_url: workspace.avatarUrl,
  organization_name: organization.name,
  is_personal: organization.isPersonal,
});

/** There is no Prometheus to read: the answer says so and where the metrics are instead. */
export const prometheusCredentials = (
  config: Config,
  access: WorkspaceAccess,
): z.infer<typeof prometheusCredentialsSchema> => ({
  available: false,
  url: null,
  username: null,
  password: null,
  detail:
    'This server runs no Prometheus: cluster metrics come from what its control plane records ' +
    '(workers, instances, log lines, heartbeat age) and are read from the metrics calls.',
  metrics_url: `${config.publicUrl}/api/v2/metrics/account/${encodeURIComponent(access.workspace.slug)}/cluster/`,
});

/**
 * Whether the user can run clusters on this server's compute: every workspace can (there is no
 * separate hosted offer to join), so it is whether they hold cores in one: their default
 * workspace first, else the workspace they joined last.
 */
async function hostedWorkspace(db: Db, user: User): Promise<string | null> {
  const [row] = await db
    .select({ slug: workspaces.slug })
    .from(workspaceMemberships)
    .innerJoin(workspaces, eq(workspaces.id, workspaceMemberships.workspaceId))
    .innerJoin(users, eq(users.id, workspaceMemberships.userId))
    .where(and(eq(workspaceMemberships.userId, user.id), gt(workspaceMemberships.coreLimit, 0)))
    .orderBy(desc(eq(workspaces.id, users.defaultWorkspaceId)), desc(workspaceMemberships.id))
    .limit(1);
  return row?.slug ?? null;
}

const NO_CORES =
  'You hold no cores in any workspace of this server: ask an admin of a workspace to add you, or to raise your core limit.';

/** `user/hosted-activate`: nothing to switch on here; answers where the user's clusters run. */
export async function hostedActivate(db: Db, user: User): Promise<z.infer<typeof hostedStandingSchema>> {
  const account = await hostedWorkspace(db, user);
  return {
    activated: account !== null,
    account,
    detail:
      account === null
        ? NO_CORES
        : `Clusters run on this server’s own compute; there is nothing to activate. Yours run in ${account} by default.`,
  };
}

/** `user/hosted-approval-dry-run`: whether the user would be let run clusters, and why (nothing is written). */
export async function hostedApproval(db: Db, user: User): Promise<z.infer<typeof hostedApprovalSchema>> {
  const account = await hostedWorkspace(db, user);
  return account === null
    ? { approved: false, reason: NO_CORES }
    : { approved: true, reason: `You may run clusters in ${account} within your core and credit limits.` };
}
