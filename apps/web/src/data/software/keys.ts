import type { ScopedAliasQuery } from '@/data/software/aliases-query';

/** An environment as its pages address it: its workspace's slug and its id. */
export type AliasRef = { account: string; id: number };
export type BuildRef = { account: string; id: number };

export const softwareKeys = {
  all: ['software'] as const,
  lists: () => [...softwareKeys.all, 'aliases'] as const,
  list: (query: ScopedAliasQuery) => [...softwareKeys.lists(), query] as const,
  workspace: (account: string) => [...softwareKeys.lists(), 'workspace', account] as const,
  alias: (ref: AliasRef) => [...softwareKeys.all, 'alias', ref.account, ref.id] as const,
  aliasBuilds: (ref: AliasRef) => [...softwareKeys.alias(ref), 'builds'] as const,
  build: (ref: BuildRef) => [...softwareKeys.all, 'build', ref.account, ref.id] as const,
  buildLogs: (ref: BuildRef) => [...softwareKeys.build(ref), 'logs'] as const,
  spec: (ref: { account: string; id: number }) => [...softwareKeys.all, 'spec', ref.account, ref.id] as const,
};
