import * as React from 'react';

import type { CurrentUser } from '@/data/user/current-user-query';
import type { OrganizationMembership } from '@/data/user/organization-memberships-query';
import type { WorkspaceMembership } from '@/data/user/workspace-memberships-query';

export type SignedIn = {
  user: CurrentUser;
  /** The workspaces (accounts) the user belongs to. */
  workspaceMemberships: WorkspaceMembership[];
  organizationMemberships: OrganizationMembership[];
};

export const SignedInContext = React.createContext<SignedIn | null>(null);

/**
 * The signed-in user and their memberships, loaded before the shell renders any page (so never
 * undefined inside it). They are the cached queries of data/user/: invalidating those
 * updates every reader.
 */
export function useSignedIn(): SignedIn {
  const value = React.useContext(SignedInContext);
  if (!value) throw new Error('useSignedIn must be used inside the signed-in shell.');
  return value;
}
