import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { RequireAuth } from '@/app/shell/RequireAuth';
import { session } from '@/lib/api/session';

function renderAt(url: string) {
  const router = createMemoryRouter(
    [
      { path: '/login', element: <p>Login page</p> },
      { Component: RequireAuth, children: [{ path: '/team', element: <p>Team page</p> }] },
    ],
    { initialEntries: [url] },
  );
  render(
    <QueryClientProvider client={new QueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

describe('RequireAuth', () => {
  afterEach(() => {
    vi.useRealTimers();
    session.clear();
  });

  it('sends a visitor without a token to login with return-to', () => {
    const router = renderAt('/team?tab=workspaces');
    expect(screen.getByText('Login page')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?return-to=%2Fteam%3Ftab%3Dworkspaces');
  });

  it('after a 401, says the session ended, then clears the token and goes to login after 3 s', async () => {
    vi.useFakeTimers();
    session.signIn('key-1');
    const router = renderAt('/team');
    expect(screen.getByText('Team page')).toBeInTheDocument();

    act(() => session.expire());
    expect(screen.getByText('It seems you have been logged out, redirecting to login')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(2_999));
    expect(session.token()).toBe('key-1');

    await act(async () => {
      await vi.advanceTimersByTimeAsync(1);
    });
    expect(session.token()).toBeNull();
    expect(window.localStorage.getItem('cumulus.token')).toBeNull();
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.search).toBe('?return-to=%2Fteam');
  });

  it('after logging out, goes to login without a return-to', () => {
    session.signIn('key-2');
    const router = renderAt('/team');
    act(() => session.clear({ loggedOut: true }));
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.search).toBe('');
  });
});
