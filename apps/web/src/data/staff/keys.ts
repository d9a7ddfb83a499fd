import type { StaffUsersQuery } from '@/data/staff/staff-users-query';
import type { UserInteractionsQuery } from '@/data/staff/user-interactions-query';

export const staffKeys = {
  all: ['staff'] as const,
  users: () => [...staffKeys.all, 'users'] as const,
  userList: (query: StaffUsersQuery) => [...staffKeys.users(), query] as const,
  organizations: (query: { search: string; offset: number; limit: number }) =>
    [...staffKeys.all, 'organizations', query] as const,
  attention: () => [...staffKeys.all, 'clusters'] as const,
  attentionList: (query: { seen: boolean; offset: number; limit: number }) =>
    [...staffKeys.attention(), query] as const,
  ssoDomains: () => [...staffKeys.all, 'sso-domains'] as const,
  emails: (query: { offset: number; limit: number }) => [...staffKeys.all, 'emails', query] as const,
  interactions: (query: UserInteractionsQuery) => [...staffKeys.all, 'interactions', query] as const,
  interactionsHello: () => [...staffKeys.all, 'interactions-hello'] as const,
  interactionKeys: (query: string) => [...staffKeys.all, 'interaction-keys', query] as const,
  interactionValues: (key: string, startsWith: string) =>
    [...staffKeys.all, 'interaction-values', key, startsWith] as const,
};
