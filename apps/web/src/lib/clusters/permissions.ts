import type { ClusterSummary } from '@/data/clusters/clusters-paginate-query';
import { clusterStateSentence, isStoppable } from '@/lib/clusters/states';
import type { SignedIn } from '@/lib/signed-in';

type StopCheck = { allowed: true } | { allowed: false; reason: string };

/**
 * Whether the Stop button works, and why not (its tooltip). The server decides in the end; this
 * mirrors its rule so the button does not offer what will be refused: the creator, the
 * workspace's admins and its organization's admins stop a cluster.
 */
export function stopCheck(
  cluster: Pick<ClusterSummary, 'name' | 'creator' | 'account' | 'currentState'>,
  { user, workspaceMemberships, organizationMemberships }: SignedIn,
): StopCheck {
  const state = cluster.currentState.state;
  if (state === 'stopping') return { allowed: false, reason: `${cluster.name} is already stopping.` };
  if (!isStoppable(state))
    return {
      allowed: false,
      reason: `${clusterStateSentence(cluster.name, state)}: there is nothing left to stop.`,
    };

  const membership = workspaceMemberships.find((candidate) => candidate.account.id === cluster.account.id);
  // Without a membership the cluster is visible through organization admin rights (or staff's
  // reading rights, which the server checks).
  if (!membership) return { allowed: true };
  const organizationAdmin = organizationMemberships.some(
    (candidate) =>
      candidate.organizationId === membership.account.organization.id && candidate.role === 'admin',
  );
  if (membership.isAdmin || organizationAdmin || cluster.creator?.id === user.id) return { allowed: true };
  return {
    allowed: false,
    reason: `Only the creator of ${cluster.name} and admins of ${cluster.account.name} can stop it.`,
  };
}
