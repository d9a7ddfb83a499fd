import {
  type QueryClient,
  type UseMutationOptions,
  type UseQueryOptions,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';

// The shapes every data hook under src/data/ shares (README "Read and change server state").

/** What a query hook lets its caller set: everything but the key and the fetcher, which it owns. */
export type QueryOptions<TData, TSelected = TData> = Omit<
  UseQueryOptions<TData, Error, TSelected>,
  'queryKey' | 'queryFn'
>;

type Fetcher = (variables: never) => Promise<unknown>;
/** A fetcher's variables; `void` when it takes none, so `mutate()` needs no argument. */
// biome-ignore lint/suspicious/noConfusingVoidType: TanStack's own "no variables" (its default TVariables).
type VariablesOf<F extends Fetcher> = Parameters<F> extends [] ? void : Parameters<F>[0];

/** What a mutation hook lets its caller set, typed from its fetcher: everything but the call. */
export type MutationOptions<F extends Fetcher> = Omit<
  UseMutationOptions<Awaited<ReturnType<F>>, Error, VariablesOf<F>>,
  'mutationFn'
>;

/**
 * A mutation of `fetcher` that first brings the cache up to date (`refresh` sets or invalidates
 * the exact keys the change touches), then runs the caller's onSuccess: a caller that navigates
 * away lands on fresh data.
 */
export function useApiMutation<F extends Fetcher>(
  fetcher: F,
  { onSuccess, ...options }: MutationOptions<F> = {},
  refresh?: (queryClient: QueryClient, data: Awaited<ReturnType<F>>, variables: VariablesOf<F>) => unknown,
) {
  const queryClient = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: fetcher as (variables: VariablesOf<F>) => Promise<Awaited<ReturnType<F>>>,
    onSuccess: async (data, variables, ...rest) => {
      await refresh?.(queryClient, data, variables);
      await onSuccess?.(data, variables, ...rest);
    },
  });
}
