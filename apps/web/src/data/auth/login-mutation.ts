import { startSession } from '@/data/auth/session-start';
import { type ApiBody, api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

// The public account calls (this folder). Each answers `detail` (or
// `key`); failures are ApiErrors whose body the forms read. None reads anything, so no keys.ts.

/** An entry containing an at-sign is sent as email, otherwise as username (section 5). */
export function loginBody(usernameOrEmail: string, password: string): ApiBody<'/api/v1/auth/login/', 'post'> {
  const entry = usernameOrEmail.trim();
  return entry.includes('@') ? { email: entry, password } : { username: entry, password };
}

/** `invite`: the token of the invitation link the person came through; signing in accepts it. */
export const login = ({
  usernameOrEmail,
  password,
  invite,
}: {
  usernameOrEmail: string;
  password: string;
  invite?: string | null;
}) =>
  call(
    api.POST('/api/v1/auth/login/', {
      body: { ...loginBody(usernameOrEmail, password), ...(invite ? { invite } : {}) },
    }),
  );

export function useLoginMutation(options?: MutationOptions<typeof login>) {
  return useApiMutation(login, options, startSession);
}
