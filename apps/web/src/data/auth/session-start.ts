import type { QueryClient } from '@tanstack/react-query';

import { session } from '@/lib/api/session';

/** A sign-in's answer becomes the session; whatever was cached belonged to whoever was signed in before. */
export function startSession(queryClient: QueryClient, { key }: { key: string }): void {
  queryClient.clear();
  session.signIn(key);
}
