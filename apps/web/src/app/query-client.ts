import { QueryClient } from '@tanstack/react-query';

const SECOND = 1_000;

// spec/console.md section 9: 3 retries, delay doubling from 1 s up to 30 s, cache 5 minutes.
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: 3,
        retryDelay: (attempt) => Math.min(SECOND * 2 ** attempt, 30 * SECOND),
        gcTime: 5 * 60 * SECOND,
      },
    },
  });
}
