import type { paths } from '@cumulus/api';

import type { Scope } from '@/data/scopes/valid-scopes-query';

/** The scope filters list endpoints take (clusters/paginate, software-environment/alias, tags/values...). */
export type ScopeQuery = Pick<
  NonNullable<paths['/api/v2/clusters/paginate']['get']['parameters']['query']>,
  'account' | 'organization' | 'user' | 'compound_scope' | 'custom_staff_scope'
>;

/** One key per scope, for lists and for comparing a stored scope with the valid ones. */
export const scopeKey = (scope: Pick<Scope, 'type' | 'id'>) => `${scope.type}:${scope.id}`;

/** The query parameters a list call takes for a scope: spread them into `params.query`. */
export function scopeQuery(scope: Scope | null | undefined): ScopeQuery {
  if (!scope || scope.id === null) return {};
  switch (scope.type) {
    case 'account':
      return { account: scope.slug ?? String(scope.id) };
    case 'organization':
      return { organization: Number(scope.id) };
    case 'user':
      return { user: Number(scope.id) };
    case 'compound':
      return { compound_scope: String(scope.id) };
    case 'custom_staff':
      return { custom_staff_scope: String(scope.id) };
  }
}

/** The organization a scope is inside of: an organization scope's own, a workspace's; else null. */
export function organizationIdOf(scope: Scope | null | undefined): number | null {
  if (scope?.type === 'organization' || scope?.type === 'account') return scope.organizationId;
  return null;
}

/** An organization scope (after creating one, or a staff search result). */
export function organizationScope(organization: { id: number; name: string }): Scope {
  return {
    type: 'organization',
    id: organization.id,
    name: organization.name,
    slug: null,
    email: null,
    workspaceNames: [],
    organizationId: organization.id,
  };
}

/**
 * The scope a page shows: the picked one while the user may still pick it;
 * for non-staff an unavailable one falls back to the first compound scope (Everything). Staff keep
 * theirs (they may pick organizations they do not belong to). With nothing picked yet: the
 * current workspace, else the first compound scope. `valid` undefined: not loaded yet.
 */
export function effectiveScope(
  picked: Scope | null,
  valid: readonly Scope[] | undefined,
  { isStaff, workspaceId }: { isStaff: boolean; workspaceId?: number | null | undefined },
): Scope | null {
  if (!valid) return picked;
  const firstCompound = valid.find((scope) => scope.type === 'compound') ?? valid[0] ?? null;
  if (picked) {
    const current = valid.find((scope) => scopeKey(scope) === scopeKey(picked));
    if (current) return current;
    return isStaff ? picked : firstCompound;
  }
  const workspace = valid.find((scope) => scope.type === 'account' && scope.id === workspaceId);
  return workspace ?? firstCompound;
}

/**
 * The user's workspaces a scope lists clusters of: a workspace scope its own, an organization
 * scope the user's workspaces in it, Everything and "me" all of them, a staff list those named.
 * A cluster made in one of these shows in the scope's list.
 */
export function workspacesInScope<W extends { id: number; name: string; organization: { id: number } }>(
  scope: Scope | null | undefined,
  workspaces: readonly W[],
): W[] {
  if (!scope) return [...workspaces];
  switch (scope.type) {
    case 'account':
      return workspaces.filter((workspace) => workspace.id === Number(scope.id));
    case 'organization':
      return workspaces.filter((workspace) => workspace.organization.id === Number(scope.id));
    case 'compound':
    case 'user':
      return [...workspaces];
    case 'custom_staff':
      return workspaces.filter((workspace) => scope.workspaceNames.includes(workspace.name));
  }
}

/** The valid scope of one workspace (picking a workspace in the sidebar lists it). */
export const workspaceScope = (valid: readonly Scope[], workspaceId: number) =>
  valid.find((scope) => scope.type === 'account' && Number(scope.id) === workspaceId) ?? null;

/** Search waits this long after the last keystroke. */
export const SCOPE_SEARCH_DEBOUNCE_MS = 150;
