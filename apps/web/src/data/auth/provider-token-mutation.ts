import { startSession } from '@/data/auth/session-start';
import { api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

/** What a provider sent back to the callback page: the code, the state the sign-in started with, its issuer. */
export type CallbackAnswer = { code: string; state: string; iss?: string };

/** The OAuth callback's code exchange with `provider` (google, github). */
export const exchangeProviderCode = ({ provider, ...answer }: CallbackAnswer & { provider: string }) =>
  call(api.POST('/users/{provider}/get_token', { params: { path: { provider } }, body: answer }));

export function useProviderTokenMutation(options?: MutationOptions<typeof exchangeProviderCode>) {
  return useApiMutation(exchangeProviderCode, options, startSession);
}
