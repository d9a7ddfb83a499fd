import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type * as React from 'react';
import { describe, expect, it } from 'vitest';

import { useApiMutation } from '@/lib/api/hooks';

function wrapper(queryClient: QueryClient) {
  return ({ children }: { children: React.ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  );
}

describe('useApiMutation', () => {
  it("brings the cache up to date before the caller's onSuccess runs", async () => {
    const queryClient = new QueryClient();
    const seen: unknown[] = [];
    const rename = async ({ name }: { name: string }) => ({ name: name.toUpperCase() });
    const { result } = renderHook(
      () =>
        useApiMutation(
          rename,
          { onSuccess: () => void seen.push(queryClient.getQueryData(['thing'])) },
          async (client, answer, variables) => {
            await Promise.resolve();
            client.setQueryData(['thing'], { ...answer, asked: variables.name });
          },
        ),
      { wrapper: wrapper(queryClient) },
    );
    act(() => result.current.mutate({ name: 'ada' }));
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(seen).toEqual([{ name: 'ADA', asked: 'ada' }]);
  });

  it('takes no variables when the fetcher takes none', async () => {
    const { result } = renderHook(() => useApiMutation(async () => 'done'), {
      wrapper: wrapper(new QueryClient()),
    });
    act(() => result.current.mutate());
    await waitFor(() => expect(result.current.data).toBe('done'));
  });
});
