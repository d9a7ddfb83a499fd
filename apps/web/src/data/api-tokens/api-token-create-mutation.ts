import { addDays } from 'date-fns';

import { apiTokenKeys } from '@/data/api-tokens/keys';
import { interactionKeys } from '@/data/interactions/keys';
import { api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

/** Expiry in whole days from now; no days means never (section 9). */
export function tokenExpiry(days: number | undefined, now = new Date()): string | null {
  return days === undefined ? null : addDays(now, days).toISOString();
}

/** A new token: its secret is in this answer and never again. */
export const createApiToken = ({ label, days }: { label: string; days?: number }) =>
  call(api.POST('/api/v1/api-tokens/', { body: { label: label || null, expiry: tokenExpiry(days) } }));

export function useApiTokenCreateMutation(options?: MutationOptions<typeof createApiToken>) {
  // The server ticks has-api-key with it (the token banner and Get Started read the flag).
  return useApiMutation(createApiToken, options, (queryClient) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: apiTokenKeys.list() }),
      queryClient.invalidateQueries({ queryKey: interactionKeys.flags() }),
    ]),
  );
}
