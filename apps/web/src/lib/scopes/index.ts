/**
 * Scopes: what a list page shows.
 *
 *   const { scope } = useScope();                 // the console's current scope (shared, stored)
 *   <ScopePicker />                               // picks it (components/scope-picker); or <ScopePicker value onChange />
 *   getClustersPage({ ...scopeQuery(scope), limit }) // a list call takes the scope's filters
 *
 * Put `scopeKey(scope)` in the list's query key. `useScope()` applies the fallback rule: a
 * non-staff user whose scope is no longer available sees the first compound scope (Everything).
 * `pickScope(organizationScope(org))` sets the scope from anywhere (creating a workspace does, so
 * its organization becomes the scope). `organizationIdOf(scope)` gives the organization a scope is in.
 */
export type { Scope } from '@/data/scopes/valid-scopes-query';
export { pickedScope, pickScope, useScope } from '@/lib/scopes/current-scope';
export {
  effectiveScope,
  organizationIdOf,
  organizationScope,
  SCOPE_SEARCH_DEBOUNCE_MS,
  type ScopeQuery,
  scopeKey,
  scopeQuery,
  workspaceScope,
  workspacesInScope,
} from '@/lib/scopes/scope';
