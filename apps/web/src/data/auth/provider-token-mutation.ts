import { startSession } from '@/data/auth/session-start';
import { api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

/** The OAuth callback's code exchange with `provider` (google, github). */
export const exchangeProviderCode = ({ provider, code }: { provider: string; code: string }) =>
  call(api.POST('/users/{provider}/get_token', { params: { path: { provider } }, body: { code } }));

export function useProviderTokenMutation(options?: MutationOptions<typeof exchangeProviderCode>) {
  return useApiMutation(exchangeProviderCode, options, startSession);
}
