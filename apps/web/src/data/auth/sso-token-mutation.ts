import type { CallbackAnswer } from '@/data/auth/provider-token-mutation';
import { startSession } from '@/data/auth/session-start';
import { api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

/** The SSO callback's code exchange: the provider's code and state (and `iss`, when it sends one). */
export const exchangeSsoCode = (answer: CallbackAnswer) =>
  call(api.GET('/api/v2/workos/success', { params: { query: answer } }));

export function useSsoTokenMutation(options?: MutationOptions<typeof exchangeSsoCode>) {
  return useApiMutation(exchangeSsoCode, options, startSession);
}
