import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { addDays } from 'date-fns';

import { type ApiBody, type ApiData, api, call } from '@/lib/api/client';
import { allPages } from '@/lib/api/pages';

export type ApiToken = ApiData<'/api/v1/api-tokens/', 'get'>['results'][number];
export type CreatedApiToken = ApiData<'/api/v1/api-tokens/', 'post'>;

export const profileKeys = {
  all: ['profile'] as const,
  tokens: () => [...profileKeys.all, 'api-tokens'] as const,
};

/** Only active tokens (not expired, not revoked), newest first (spec section 2, Profile). */
export function activeTokens(tokens: ApiToken[]): ApiToken[] {
  return tokens
    .filter((token) => !token.expired && !token.revoked)
    .sort((a, b) => new Date(b.created).getTime() - new Date(a.created).getTime());
}

export function useApiTokens() {
  return useQuery({
    queryKey: profileKeys.tokens(),
    queryFn: ({ signal }) =>
      allPages((page) => call(api.GET('/api/v1/api-tokens/', { params: { query: { page } }, signal }))),
    select: activeTokens,
  });
}

/** Expiry in whole days from now; no days means never (section 9). */
export function tokenExpiry(days: number | undefined, now = new Date()): string | null {
  return days === undefined ? null : addDays(now, days).toISOString();
}

export function useCreateApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ label, days }: { label: string; days?: number }) =>
      call(api.POST('/api/v1/api-tokens/', { body: { label: label || null, expiry: tokenExpiry(days) } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: profileKeys.tokens() }),
  });
}

export function useRevokeApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (identifier: string) =>
      call(api.DELETE('/api/v1/api-tokens/{identifier}/revoke', { params: { path: { identifier } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: profileKeys.tokens() }),
  });
}

export function useChangePassword() {
  return useMutation({
    mutationFn: (body: ApiBody<'/api/v1/auth/password/change/', 'post'>) =>
      call(api.POST('/api/v1/auth/password/change/', { body })),
  });
}
