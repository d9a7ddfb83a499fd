import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';

import { isApiError } from '@/lib/api/errors';
import { session } from '@/lib/api/session';

const SECOND = 1_000;
export const MAX_RETRIES = 3;
/**
 * The user, memberships, notices seen and scopes change by this user's own actions, which
 * refresh them: fresh for a minute, a page that mounts after the shell asked does not ask again.
 */
export const SHELL_STALE_MS = 60 * SECOND;

/** Retry only what may pass next time: no answer, or a server error. A 4xx is the answer. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= MAX_RETRIES) return false;
  if (!isApiError(error)) return false;
  if (error.kind === 'network' || error.kind === 'timeout') return true;
  return error.status !== undefined && error.status >= 500;
}

/** 1 s, 2 s, 4 s... up to 30 s. */
export const retryDelay = (attempt: number) => Math.min(SECOND * 2 ** attempt, 30 * SECOND);

/** A 401 on a signed-in call means the session ended: the shell shows the logged-out screen. */
function onError(error: unknown) {
  if (isApiError(error) && error.kind === 'unauthorized') session.expire();
}

// 3 retries, delay doubling from 1 s up to 30 s, cache 5 minutes.
export function createQueryClient() {
  return new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      queries: {
        retry: shouldRetry,
        retryDelay,
        gcTime: 5 * 60 * SECOND,
      },
      mutations: { retry: false },
    },
  });
}

/** The console's one query cache: the app's provider and the routes' loaders share it. */
export const queryClient = createQueryClient();
