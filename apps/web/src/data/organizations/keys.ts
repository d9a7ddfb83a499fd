// Everything read of one organization sits under `organization(id)`, so a change to it can
// refresh all of its lists at once (refresh.ts).
export const organizationKeys = {
  all: ['organizations'] as const,
  searches: () => [...organizationKeys.all, 'search'] as const,
  search: (search: string, staff: boolean) =>
    [...organizationKeys.searches(), staff ? 'staff' : 'mine', search] as const,
  organization: (id: number) => [...organizationKeys.all, 'organization', id] as const,
  details: (id: number) => [...organizationKeys.organization(id), 'details'] as const,
  workspaces: (id: number) => [...organizationKeys.organization(id), 'workspaces'] as const,
  members: (id: number) => [...organizationKeys.organization(id), 'members'] as const,
  invites: (id: number) => [...organizationKeys.organization(id), 'invites'] as const,
  sso: (id: number) => [...organizationKeys.organization(id), 'sso'] as const,
  membership: (id: number) => [...organizationKeys.all, 'membership', id] as const,
  invite: (id: number) => [...organizationKeys.all, 'invite', id] as const,
  /** An invitation as its mailed link's token shows it (no session needed). */
  invitePreview: (token: string) => [...organizationKeys.all, 'invite-preview', token] as const,
};
