import * as React from 'react';
import { useSearchParams } from 'react-router';

import { useScope, workspacesInScope } from '@/lib/scopes';
import { ACCOUNT_PARAM, useWorkspace } from '@/lib/workspace';

/**
 * Keeps the sidebar's workspace inside the scope the lists show: picking an organization (on the
 * Team page, say) moves the sidebar to a workspace of the user's in it, so the scope shown, the
 * clusters listed and the workspace Create cluster uses agree. A link naming a workspace
 * (`?account=`) is left alone.
 */
export function ScopeWorkspaceSync() {
  const { scope } = useScope();
  const { workspace, workspaces, selectWorkspace } = useWorkspace();
  const [params] = useSearchParams();
  const named = params.has(ACCOUNT_PARAM);
  React.useEffect(() => {
    if (!scope || named) return;
    const inScope = workspacesInScope(scope, workspaces);
    if (workspace && inScope.some((candidate) => candidate.id === workspace.id)) return;
    const next = inScope.find((candidate) => candidate.isDefault) ?? inScope[0];
    if (next) selectWorkspace(next.slug);
  }, [scope, named, workspace, workspaces, selectWorkspace]);
  return null;
}
