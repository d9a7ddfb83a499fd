import type { QueryClient } from '@tanstack/react-query';

import { clustersPageQuery } from '@/data/clusters/clusters-paginate-query';
import { validScopesQuery } from '@/data/scopes/valid-scopes-query';
import { currentUserQuery } from '@/data/user/current-user-query';
import { workspaceMembershipsQuery } from '@/data/user/workspace-memberships-query';
import {
  paginateQuery,
  parseDashboardSearch,
  readDashboardTab,
} from '@/features/clusters/dashboard/search-params';
import { session } from '@/lib/api/session';
import { pickedScope } from '@/lib/scopes/current-scope';
import { effectiveScope, scopeQuery } from '@/lib/scopes/scope';
import { readStored, STORAGE_KEYS } from '@/lib/storage';
import { ACCOUNT_PARAM, currentWorkspace, workspacesOf } from '@/lib/workspace';

/**
 * Asks for the Dashboard's first page of clusters (`url`'s page, filters and order, in the scope
 * the page will show) as soon as the user, memberships and scopes are in, while the shell and the
 * page still load and draw; ClustersPage then finds it in the cache. Should the page settle on
 * another scope, it asks for its own. Failures are the page's to show.
 */
export async function prefetchDashboard(queryClient: QueryClient, url: URL): Promise<void> {
  if (!session.token() || readDashboardTab(url.searchParams) !== 'clusters') return;
  try {
    const [user, memberships, valid] = await Promise.all([
      queryClient.ensureQueryData(currentUserQuery()),
      queryClient.ensureQueryData(workspaceMembershipsQuery()),
      queryClient.ensureQueryData(validScopesQuery()),
    ]);
    const workspace = currentWorkspace(workspacesOf(memberships), {
      linked: url.searchParams.get(ACCOUNT_PARAM),
      stored: readStored(STORAGE_KEYS.selectedAccount),
      userDefault: user.defaultAccount?.slug,
    });
    const scope = effectiveScope(pickedScope(), valid, { isStaff: user.isStaff, workspaceId: workspace?.id });
    if (!scope) return;
    const search = parseDashboardSearch(url.searchParams);
    await queryClient.prefetchQuery(clustersPageQuery(paginateQuery(search, scopeQuery(scope))));
  } catch {
    // The shell and the page show what failed.
  }
}
