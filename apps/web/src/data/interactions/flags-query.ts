import type { paths } from '@cumulus/api';
import { useQuery } from '@tanstack/react-query';

import { interactionKeys } from '@/data/interactions/keys';
import { api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';

/** Per-user milestones. */
export type FlagName = paths['/api/v2/interactions/flag/{name}']['get']['parameters']['path']['name'];
export type Flags = Partial<Record<FlagName, boolean>>;

/** Flags are polled every 10 s (section 9). */
export const FLAG_POLL_MS = 10_000;

/** Every flag of the user, `completed` by name: `flags['get-started']`. */
export async function getFlags(signal?: AbortSignal): Promise<Flags> {
  const flags = await call(api.GET('/api/v2/interactions/flag', { signal }));
  return Object.fromEntries(flags.map((flag) => [flag.name, flag.completed])) as Flags;
}

/** The flags, polled every 10 s: `useFlagsQuery().data?.['get-started']`. */
export function useFlagsQuery<TData = Flags>(options: QueryOptions<Flags, TData> = {}) {
  return useQuery({
    queryKey: interactionKeys.flags(),
    queryFn: ({ signal }) => getFlags(signal),
    refetchInterval: FLAG_POLL_MS,
    ...options,
  });
}
