export const userKeys = {
  all: ['user'] as const,
  me: () => [...userKeys.all, 'me'] as const,
  workspaceMemberships: () => [...userKeys.all, 'memberships'] as const,
  organizationMemberships: () => [...userKeys.all, 'organization-memberships'] as const,
  identities: () => [...userKeys.all, 'identities'] as const,
};
