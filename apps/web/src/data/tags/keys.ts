import type { paths } from '@cumulus/api';

/** The scope filters tag lists take (what `scopeQuery(scope)` gives). */
export type TagScope = Pick<
  NonNullable<paths['/api/v2/tags/labels']['get']['parameters']['query']>,
  'account' | 'organization' | 'user' | 'compound_scope' | 'custom_staff_scope'
>;

export const tagKeys = {
  all: ['tags'] as const,
  alertContents: (tags: string) => [...tagKeys.all, 'alert-contents', tags] as const,
  labels: (scope: TagScope, startsWith: string) => [...tagKeys.all, 'labels', scope, startsWith] as const,
  values: (scope: TagScope, key: string, startsWith: string) =>
    [...tagKeys.all, 'values', scope, key, startsWith] as const,
};
