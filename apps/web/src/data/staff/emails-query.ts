import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { staffKeys } from '@/data/staff/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';

type Query = { offset: number; limit: number };
export type OutboxPage = ApiData<'/api/v2/staff/emails', 'get'>;
export type OutboxEmail = OutboxPage['items'][number];

/** The mail outbox, newest first: what was kept without SMTP and what failed to go out. */
export const getEmails = (query: Query, signal?: AbortSignal) =>
  call(api.GET('/api/v2/staff/emails', { params: { query }, signal }));

export function useEmailsQuery<TData = OutboxPage>(
  query: Query,
  options: QueryOptions<OutboxPage, TData> = {},
) {
  return useQuery({
    queryKey: staffKeys.emails(query),
    queryFn: ({ signal }) => getEmails(query, signal),
    placeholderData: keepPreviousData,
    ...options,
  });
}
