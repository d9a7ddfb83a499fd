import type { paths } from '@cumulus/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { type ApiBody, type ApiData, api, call } from '@/lib/api/client';
import { allPages } from '@/lib/api/pages';

/** Notices shown once (console.md section 3, "Interaction type names"). */
export type InteractionTypeName =
  | 'warned-about-ecs'
  | 'user-info-on-sign-in'
  | 'unsubscribe'
  | 'api-token-message'
  | 'spot-default-changed'
  | 'requested-activation';
/** Per-user milestones (console.md section 3, "Flag names"). */
export type FlagName = paths['/api/v2/interactions/flag/{name}']['get']['parameters']['path']['name'];
export type Banner = ApiData<'/api/v1/banners', 'get'>['results'][number];

/** Flags are polled every 10 s (section 9). */
export const FLAG_POLL_MS = 10_000;

export const interactionKeys = {
  all: ['interactions'] as const,
  types: () => [...interactionKeys.all, 'types'] as const,
  list: () => [...interactionKeys.all, 'list'] as const,
  flags: () => [...interactionKeys.all, 'flags'] as const,
  banners: () => [...interactionKeys.all, 'banners'] as const,
};

export function useInteractionTypes() {
  return useQuery({
    queryKey: interactionKeys.types(),
    queryFn: ({ signal }) =>
      allPages((page) =>
        call(api.GET('/api/v1/interaction_types/', { params: { query: { page } }, signal })),
      ),
  });
}

export function useInteractions() {
  return useQuery({
    queryKey: interactionKeys.list(),
    queryFn: ({ signal }) =>
      allPages((page) => call(api.GET('/api/v1/interactions/', { params: { query: { page } }, signal }))),
  });
}

/**
 * Whether a notice has been seen (section 4): its type is missing or expired, or an interaction
 * of that type exists. If the interactions cannot be read, every notice counts as seen.
 */
export function useNoticeSeen(name: InteractionTypeName): boolean {
  const types = useInteractionTypes();
  const interactions = useInteractions();
  if (types.isError || interactions.isError) return true;
  if (!types.data || !interactions.data) return true;
  const type = types.data.find((candidate) => candidate.name === name);
  if (!type || type.expired) return true;
  return interactions.data.some((interaction) => interaction.interactionType === name);
}

/** Marks a notice seen (POST /api/v1/interactions/). */
export function useRecordInteraction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (interactionType: InteractionTypeName) =>
      call(api.POST('/api/v1/interactions/', { body: { interaction_type: interactionType } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: interactionKeys.list() }),
  });
}

/** Every flag of the user, `completed` by name, polled every 10 s: `useFlags().data?.['get-started']`. */
export function useFlags() {
  return useQuery({
    queryKey: interactionKeys.flags(),
    queryFn: ({ signal }) => call(api.GET('/api/v2/interactions/flag', { signal })),
    select: (flags) =>
      Object.fromEntries(flags.map((flag) => [flag.name, flag.completed])) as Partial<
        Record<FlagName, boolean>
      >,
    refetchInterval: FLAG_POLL_MS,
  });
}

export function useSetFlag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ name, completed }: { name: FlagName; completed: boolean }) =>
      call(api.PUT('/api/v2/interactions/flag/{name}', { params: { path: { name } }, body: { completed } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: interactionKeys.flags() }),
  });
}

/** Records a console event (the welcome dialog's answer, for instance). */
export function useRecordClientInteraction() {
  return useMutation({
    mutationFn: (body: ApiBody<'/api/v2/interactions/interaction', 'post'>) =>
      call(api.POST('/api/v2/interactions/interaction', { body })),
  });
}

export function useBanners() {
  return useQuery({
    queryKey: interactionKeys.banners(),
    queryFn: ({ signal }) =>
      allPages((page) => call(api.GET('/api/v1/banners', { params: { query: { page } }, signal }))),
  });
}
