import { createQueryClient } from '@/lib/api/query-client';

/** The console's one query cache: the app's provider and the router's loaders share it. */
export const queryClient = createQueryClient();
