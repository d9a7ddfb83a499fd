import type { CloudProvider } from '../../db/schema/index.js';
import type { Deps } from '../../deps.js';
import { actionRequired } from '../../http/errors.js';
import { desire } from '../clusters/index.js';
import { clustersInCloud, PROVIDER_NAME } from './workspace-backend.js';

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/**
 * Before a change that would strand the workspace's clusters in a cloud (other credentials, no
 * credentials, no setup): with clusters there, the first call answers 409 confirm saying what
 * will happen; the confirmed call asks them to stop and answers 409 retry until every one has
 * released its machines, and only then lets the change through.
 */
export async function guardClustersInCloud(
  deps: Pick<Deps, 'db' | 'loops'>,
  workspaceId: number,
  provider: CloudProvider,
  confirm: boolean,
  change: string,
): Promise<void> {
  const held = await clustersInCloud(deps.db, workspaceId, provider);
  if (held.length === 0) return;
  const names = held
    .slice(0, 5)
    .map((c) => c.name)
    .join(', ');
  const clustersText = `${plural(held.length, 'cluster')} (${names}${held.length > 5 ? ', ...' : ''})`;
  if (!confirm)
    throw actionRequired(
      'confirm',
      `${clustersText} run in ${PROVIDER_NAME[provider]} with these credentials. ${change} stops ${held.length === 1 ? 'it' : 'them'} first. Continue?`,
    );
  await desire(deps, async (_tx, want) => {
    for (const c of held) await want.stop(c.id, 'stopped', `${change} (cloud credentials changed)`);
  });
  throw actionRequired(
    'retry',
    `Stopping ${clustersText} before the change; this takes a minute while their machines shut down.`,
  );
}
