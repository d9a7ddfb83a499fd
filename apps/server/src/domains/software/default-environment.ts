import { and, desc, eq } from 'drizzle-orm';
import { softwareAliases, softwareBuilds, softwareSpecs, type User } from '../../db/schema/index.js';
import type { Deps } from '../../deps.js';
import type { WorkspaceAccess } from '../identity/index.js';
import { createSpecBody } from './schemas.js';
import { createSpec } from './specs.js';

/** The environment clusters created without one run on, in each workspace's Software list. */
export const DEFAULT_ENVIRONMENT = 'cumulus-default';

/**
 * The build a cluster created without an environment runs on: the workspace's default
 * environment, Dask from the interpreter plus the bokeh it serves its dashboard with. It is made
 * at first need; until it is built (or when it cannot be: no index has that bokeh) clusters run on
 * the interpreter itself, as before, without a dashboard, and do not wait. A failed build is not
 * retried by itself: its page says why, and Rebuild or a new spec of that name tries again.
 */
export async function defaultEnvironmentBuild(
  deps: Pick<Deps, 'db' | 'loops' | 'backends' | 'config'>,
  _user: User,
  access: WorkspaceAccess,
): Promise<number | null> {
  if (!deps.config.software.defaultEnvironment) return null;
  const backend = await deps.backends.forWorkspace(access.workspace.id);
  const requirement = (await backend.builder?.interpreter().catch(() => null))?.dashboardRequirement;
  if (!requirement) return null;
  const { db } = deps;
  const [alias] = await db
    .select({ id: softwareAliases.id })
    .from(softwareAliases)
    .where(
      and(
        eq(softwareAliases.workspaceId, access.workspace.id),
        eq(softwareAliases.name, DEFAULT_ENVIRONMENT),
      ),
    );
  if (!alias) {
    const body = createSpecBody.parse({ name: DEFAULT_ENVIRONMENT, raw_pip: [requirement] });
    await createSpec(deps, access, body).catch(() => undefined);
    return null;
  }
  const [latest] = await db
    .select({ id: softwareBuilds.id, state: softwareBuilds.state, archivedAt: softwareBuilds.archivedAt })
    .from(softwareSpecs)
    .innerJoin(softwareBuilds, eq(softwareBuilds.specId, softwareSpecs.id))
    .where(eq(softwareSpecs.aliasId, alias.id))
    .orderBy(desc(softwareSpecs.id), desc(softwareBuilds.id))
    .limit(1);
  return latest?.state === 'built' && !latest.archivedAt ? latest.id : null;
}
