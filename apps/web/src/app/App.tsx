import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';

import { queryClient } from '@/app/query-client';
import { router } from '@/app/router';

// Tooltips bring their own provider and the toaster lives in the signed-in shell, so the public
// pages' first load carries neither.
export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
}
