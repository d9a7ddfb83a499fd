import * as React from 'react';

import type { CurrentUser, OrganizationMembership, WorkspaceMembership } from '@/features/user/api';

export type SignedIn = {
  user: CurrentUser;
  /** The workspaces (accounts) the user belongs to. */
  workspaceMemberships: WorkspaceMembership[];
  organizationMemberships: OrganizationMembership[];
};

export const SignedInContext = React.createContext<SignedIn | null>(null);

/**
 * The signed-in user and their memberships, loaded before the shell renders any page (so never
 * undefined inside it). They are the cached queries of features/user/api.ts: invalidating those
 * updates every reader.
 */
export function useSignedIn(): SignedIn {
  const value = React.useContext(SignedInContext);
  if (!value) throw new Error('useSignedIn must be used inside the signed-in shell.');
  return value;
}
