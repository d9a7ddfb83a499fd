import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { router } from '@/app/router';
import { queryClient } from '@/lib/api/query-client';

// Tooltips bring their own provider and the toaster lives in the signed-in shell, so the public
// pages' first load carries neither.
export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
}
