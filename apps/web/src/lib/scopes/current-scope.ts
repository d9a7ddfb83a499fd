import * as React from 'react';

import { type Scope, useValidScopesQuery } from '@/data/scopes/valid-scopes-query';
import { effectiveScope } from '@/lib/scopes/scope';
import { useSignedIn } from '@/lib/signed-in';
import { readStored, STORAGE_KEYS, writeStored } from '@/lib/storage';
import { useWorkspace } from '@/lib/workspace';

// The picked scope is shared by every page that lists by scope (Dashboard, Software, Team) and
// kept across reloads; it lives outside React so any page can set it.
let picked: Scope | null = readPicked();
const listeners = new Set<() => void>();

function readPicked(): Scope | null {
  const raw = readStored(STORAGE_KEYS.scope);
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Scope;
    return typeof value?.type === 'string' && typeof value?.name === 'string' ? value : null;
  } catch {
    return null;
  }
}

/** Picks a scope for every page (the Team page after creating an organization, for instance). */
export function pickScope(scope: Scope | null): void {
  picked = scope;
  writeStored(STORAGE_KEYS.scope, scope ? JSON.stringify(scope) : null);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** The scope the user picked (kept across reloads), before the fallback rule; null if none. */
export const pickedScope = () => picked;
const getPicked = pickedScope;

/**
 * The current scope, after the fallback rule (see effectiveScope), with the valid scopes and a
 * setter. `scope` is null only while the valid scopes load for a user who never picked one.
 */
export function useScope() {
  const { user } = useSignedIn();
  const { workspace } = useWorkspace();
  const valid = useValidScopesQuery();
  const current = React.useSyncExternalStore(subscribe, getPicked, getPicked);
  const scope = effectiveScope(current, valid.data, { isStaff: user.isStaff, workspaceId: workspace?.id });
  return {
    scope,
    scopes: valid.data ?? [],
    setScope: pickScope,
    isPending: valid.isPending,
    error: valid.error,
  };
}
