import * as React from 'react';
import { useSearchParams } from 'react-router';

import type { WorkspaceMembership } from '@/data/user/workspace-memberships-query';
import { useSignedIn } from '@/lib/signed-in';
import { readStored, STORAGE_KEYS, writeStored } from '@/lib/storage';

/** A workspace (the API calls it an account) the user belongs to, with their admin flag. */
export type Workspace = WorkspaceMembership['account'] & { isAdmin: boolean; isDefault: boolean };

type WorkspaceContextValue = {
  /** The selected workspace; null only for a user with no workspace at all. */
  workspace: Workspace | null;
  workspaces: Workspace[];
  /** Selects by slug (or id) and remembers it. */
  selectWorkspace: (slugOrId: string) => void;
};

const WorkspaceContext = React.createContext<WorkspaceContextValue | null>(null);

/** The query parameter that names a workspace in links (`/clusters/7/infrastructure?account=acme`). */
export const ACCOUNT_PARAM = 'account';

/** The user's workspaces, from their memberships. */
export const workspacesOf = (memberships: readonly WorkspaceMembership[]): Workspace[] =>
  memberships.map((membership) => ({
    ...membership.account,
    isAdmin: membership.isAdmin,
    isDefault: membership.isDefaultAccount,
  }));

/**
 * The current workspace: the `account` query parameter (`linked`) when it is the slug of one of
 * the user's workspaces, else the stored selection (slug or id), else the user's default
 * account, else the first. Links name workspaces by slug; a number there may be an
 * organization's id (Billing's account).
 */
export function currentWorkspace<W extends { id: number; slug: string }>(
  workspaces: readonly W[],
  {
    linked,
    stored,
    userDefault,
  }: { linked: string | null; stored: string | null; userDefault?: string | null },
): W | null {
  const find = (key: string | null | undefined) =>
    key ? workspaces.find((candidate) => candidate.slug === key || String(candidate.id) === key) : undefined;
  return (
    workspaces.find((candidate) => candidate.slug === linked) ??
    find(stored) ??
    find(userDefault) ??
    workspaces[0] ??
    null
  );
}

/** The current workspace (see currentWorkspace) for the signed-in shell, and its setter. */
export function WorkspaceProvider({ children }: { children: React.ReactNode }) {
  const { user, workspaceMemberships } = useSignedIn();
  const [params, setParams] = useSearchParams();
  const [stored, setStored] = React.useState(() => readStored(STORAGE_KEYS.selectedAccount));

  const workspaces = React.useMemo(() => workspacesOf(workspaceMemberships), [workspaceMemberships]);
  const find = React.useCallback(
    (key: string | null | undefined) =>
      key
        ? workspaces.find((candidate) => candidate.slug === key || String(candidate.id) === key)
        : undefined,
    [workspaces],
  );

  const fromQuery = workspaces.find((candidate) => candidate.slug === params.get(ACCOUNT_PARAM));
  const workspace = currentWorkspace(workspaces, {
    linked: params.get(ACCOUNT_PARAM),
    stored,
    userDefault: user.defaultAccount?.slug,
  });

  const remember = React.useCallback((slug: string) => {
    writeStored(STORAGE_KEYS.selectedAccount, slug);
    setStored(slug);
  }, []);

  // A link that names a workspace selects it for the pages that follow, too.
  React.useEffect(() => {
    if (fromQuery && fromQuery.slug !== stored) remember(fromQuery.slug);
  }, [fromQuery, stored, remember]);

  const selectWorkspace = React.useCallback(
    (slugOrId: string) => {
      const next = find(slugOrId);
      if (!next) return;
      remember(next.slug);
      if (params.has(ACCOUNT_PARAM)) {
        setParams(
          (current) => {
            current.set(ACCOUNT_PARAM, next.slug);
            return current;
          },
          { replace: true },
        );
      }
    },
    [find, remember, params, setParams],
  );

  const value = React.useMemo(
    () => ({ workspace, workspaces, selectWorkspace }),
    [workspace, workspaces, selectWorkspace],
  );
  return <WorkspaceContext.Provider value={value}>{children}</WorkspaceContext.Provider>;
}

/** The current workspace and the user's others: `const { workspace } = useWorkspace()`. */
export function useWorkspace(): WorkspaceContextValue {
  const value = React.useContext(WorkspaceContext);
  if (!value) throw new Error('useWorkspace must be used inside the signed-in shell.');
  return value;
}
