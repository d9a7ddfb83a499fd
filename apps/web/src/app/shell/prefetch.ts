import type { QueryClient } from '@tanstack/react-query';

import { interactionTypesQuery } from '@/data/interactions/interaction-types-query';
import { interactionsQuery } from '@/data/interactions/interactions-query';
import { validScopesQuery } from '@/data/scopes/valid-scopes-query';
import { currentUserQuery } from '@/data/user/current-user-query';
import { organizationMembershipsQuery } from '@/data/user/organization-memberships-query';
import { workspaceMembershipsQuery } from '@/data/user/workspace-memberships-query';
import { session } from '@/lib/api/session';

/**
 * Asks for what the signed-in shell waits for before it draws (AppShell), and the scopes every
 * list page reads, as a signed-in navigation starts: the answers arrive while the shell's code
 * loads, instead of after it. The shell's hooks then find them in the cache (or in flight).
 * A page load with a token has asked for them already (lib/api/early-calls.ts): those answers are used.
 * Failures are the hooks' to show; a 401 ends the session as any call's does.
 */
export async function prefetchShell(queryClient: QueryClient): Promise<void> {
  if (!session.token()) return;
  await Promise.all([
    queryClient.prefetchQuery(currentUserQuery()),
    queryClient.prefetchQuery(workspaceMembershipsQuery()),
    queryClient.prefetchQuery(organizationMembershipsQuery()),
    queryClient.prefetchQuery(interactionTypesQuery()),
    queryClient.prefetchQuery(interactionsQuery()),
    queryClient.prefetchQuery(validScopesQuery()),
  ]);
}
