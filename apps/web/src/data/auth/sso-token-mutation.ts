import { startSession } from '@/data/auth/session-start';
import { api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

/** The SSO callback's code exchange. */
export const exchangeSsoCode = (code: string) =>
  call(api.GET('/api/v2/workos/success', { params: { query: { code } } }));

export function useSsoTokenMutation(options?: MutationOptions<typeof exchangeSsoCode>) {
  return useApiMutation(exchangeSsoCode, options, startSession);
}
