import { startSession } from '@/data/auth/session-start';
import { type ApiBody, api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

// The public account calls of console.md section 7 (this folder). Each answers `detail` (or
// `key`); failures are ApiErrors whose body the forms read. None reads anything, so no keys.ts.

/** An entry containing an at-sign is sent as email, otherwise as username (section 5). */
export function loginBody(usernameOrEmail: string, password: string): ApiBody<'/api/v1/auth/login/', 'post'> {
  const entry = usernameOrEmail.trim();
  return entry.includes('@') ? { email: entry, password } : { username: entry, password };
}

export const login = ({ usernameOrEmail, password }: { usernameOrEmail: string; password: string }) =>
  call(api.POST('/api/v1/auth/login/', { body: loginBody(usernameOrEmail, password) }));

export function useLoginMutation(options?: MutationOptions<typeof login>) {
  return useApiMutation(login, options, startSession);
}
