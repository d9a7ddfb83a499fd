/**
 * Scopes: what a list page shows (console.md sections 3 and 5).
 *
 *   const { scope } = useScope();                 // the console's current scope (shared, stored)
 *   <ScopePicker />                               // picks it; or <ScopePicker value onChange />
 *   getClustersPage({ ...scopeQuery(scope), limit }) // a list call takes the scope's filters
 *
 * Put `scopeKey(scope)` in the list's query key. `useScope()` applies the fallback rule: a
 * non-staff user whose scope is no longer available sees the first compound scope (Everything).
 * `pickScope(organizationScope(org))` sets the scope from anywhere (the Team page does, after
 * creating an organization). `organizationIdOf(scope)` gives the organization a scope is in.
 */
export type { Scope } from '@/data/scopes/valid-scopes-query';
export { pickScope, useScope } from '@/features/scopes/current-scope';
export { SCOPE_SEARCH_DEBOUNCE_MS, ScopeIcon, ScopePicker } from '@/features/scopes/ScopePicker';
export {
  effectiveScope,
  organizationIdOf,
  organizationScope,
  type ScopeQuery,
  scopeKey,
  scopeQuery,
  workspaceScope,
  workspacesInScope,
} from '@/features/scopes/scope';
