import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';

import { AuthCard } from '@/components/auth-card';

function renderAt(url: string) {
  const element = <AuthCard title="Title" />;
  const router = createMemoryRouter(
    [
      { path: '/login', element },
      { path: '/signup', element },
      { path: '/forgot-password', element },
    ],
    { initialEntries: [url] },
  );
  render(<RouterProvider router={router} />);
}

describe('AuthCard public header', () => {
  it('offers Sign Up on the login page, carrying return-to', () => {
    renderAt('/login?return-to=%2Fclusters%3Fpage%3D2&open=true');

    expect(screen.getByRole('link', { name: 'Sign Up' })).toHaveAttribute(
      'href',
      '/signup?return-to=%2Fclusters%3Fpage%3D2',
    );
    expect(screen.queryByRole('link', { name: 'Login' })).not.toBeInTheDocument();
  });

  it('offers Login on the sign-up page, carrying redirect_uri', () => {
    renderAt('/signup?redirect_uri=%2Factivate-token%3Fid%3D42');

    expect(screen.getByRole('link', { name: 'Login' })).toHaveAttribute(
      'href',
      '/login?redirect_uri=%2Factivate-token%3Fid%3D42',
    );
    expect(screen.queryByRole('link', { name: 'Sign Up' })).not.toBeInTheDocument();
  });

  it('offers Login elsewhere, and the logo links to root', () => {
    renderAt('/forgot-password');

    expect(screen.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
    expect(screen.getByRole('link', { name: 'Cumulus' })).toHaveAttribute('href', '/');
  });
});
