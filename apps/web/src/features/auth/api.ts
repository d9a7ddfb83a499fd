import { useMutation, useQueryClient } from '@tanstack/react-query';

import { type ApiBody, api, call } from '@/lib/api/client';
import { session } from '@/lib/api/session';

// The public account calls of console.md section 7. Each answers `detail` (or `key`); failures
// are ApiErrors whose body the forms read.

/** An entry containing an at-sign is sent as email, otherwise as username (section 5). */
export function loginBody(usernameOrEmail: string, password: string): ApiBody<'/api/v1/auth/login/', 'post'> {
  const entry = usernameOrEmail.trim();
  return entry.includes('@') ? { email: entry, password } : { username: entry, password };
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ usernameOrEmail, password }: { usernameOrEmail: string; password: string }) =>
      call(api.POST('/api/v1/auth/login/', { body: loginBody(usernameOrEmail, password) })),
    onSuccess: ({ key }) => {
      // Whatever was cached belonged to whoever was signed in before.
      queryClient.clear();
      session.signIn(key);
    },
  });
}

/** Sends logout with an empty payload, then forgets the token and everything cached, whatever the answer. */
export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      try {
        await call(api.POST('/api/v1/auth/logout/'));
      } catch {
        // The token is forgotten either way; a failed logout leaves a session that expires by itself.
      }
    },
    onSettled: () => {
      session.clear({ loggedOut: true });
      queryClient.clear();
    },
  });
}

export function useRegister() {
  return useMutation({
    mutationFn: (body: ApiBody<'/api/v1/registration/', 'post'>) =>
      call(api.POST('/api/v1/registration/', { body })),
  });
}

export function useVerifyEmail() {
  return useMutation({
    mutationFn: (key: string) => call(api.POST('/api/v1/registration/verify-email/', { body: { key } })),
  });
}

export function useResendConfirmation() {
  return useMutation({
    mutationFn: (email: string) => call(api.POST('/api/v1/resend-confirmation-email/', { body: { email } })),
  });
}

export function useRetrieveUsername() {
  return useMutation({
    mutationFn: (email: string) => call(api.POST('/api/v1/users/retrieve-username/', { body: { email } })),
  });
}

export function usePasswordReset() {
  return useMutation({
    mutationFn: (email: string) => call(api.POST('/api/v1/auth/password/reset/', { body: { email } })),
  });
}

export function usePasswordResetConfirm() {
  return useMutation({
    mutationFn: (body: ApiBody<'/api/v1/auth/password/reset/confirm/', 'post'>) =>
      call(api.POST('/api/v1/auth/password/reset/confirm/', { body })),
  });
}

/** The OAuth callback's code exchange with `provider` (google, github). */
export function useProviderToken(provider: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) =>
      call(api.POST('/users/{provider}/get_token', { params: { path: { provider } }, body: { code } })),
    onSuccess: ({ key }) => {
      queryClient.clear();
      session.signIn(key);
    },
  });
}

/** The SSO callback's code exchange. */
export function useSsoToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => call(api.GET('/api/v2/workos/success', { params: { query: { code } } })),
    onSuccess: ({ key }) => {
      queryClient.clear();
      session.signIn(key);
    },
  });
}
