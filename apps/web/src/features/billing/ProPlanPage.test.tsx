import { fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';

import { BillingRedirectPage } from '@/features/billing/BillingRedirectPage';
import { ProPlanPage } from '@/features/billing/ProPlanPage';
import { session } from '@/lib/api/session';
import { paths } from '@/lib/paths';
import { readStored, STORAGE_KEYS } from '@/lib/storage';

function open() {
  const router = createMemoryRouter(
    [
      { path: paths.proPlan, element: <ProPlanPage /> },
      { path: paths.billingRedirect, element: <BillingRedirectPage /> },
      { path: paths.login, element: <p>Login page</p> },
      { path: paths.billing, element: <p>Billing page</p> },
    ],
    { initialEntries: [paths.proPlan] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

describe('the Professional plan page', () => {
  afterEach(() => {
    session.clear();
    window.localStorage.clear();
  });

  it('compares Professional with Free as the server starts them', () => {
    open();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Room for the whole team');
    const row = (feature: string) => screen.getByRole('cell', { name: feature }).closest('tr');
    expect(row('Members and seats')).toHaveTextContent('Up to 50Unlimited');
    expect(row('Workspaces')).toHaveTextContent('Up to 10Unlimited');
    expect(row('Cores per member')).toHaveTextContent('1,00010,000');
    expect(row('Credits included each month')).toHaveTextContent('10,00010,000');
  });

  it('sends a visitor to sign in first, remembering to open Billing after', async () => {
    const router = open();
    fireEvent.click(screen.getByRole('link', { name: 'Upgrade on the Billing page' }));
    expect(await screen.findByText('Login page')).toBeInTheDocument();
    expect(readStored(STORAGE_KEYS.upgrade)).toBe('true');
    expect(router.state.location.pathname).toBe(paths.login);
  });

  it('sends a signed-in user straight to Billing', async () => {
    session.signIn('token-1');
    open();
    fireEvent.click(screen.getByRole('link', { name: 'Upgrade on the Billing page' }));
    expect(await screen.findByText('Billing page')).toBeInTheDocument();
    expect(readStored(STORAGE_KEYS.upgrade)).toBeNull();
  });
});
