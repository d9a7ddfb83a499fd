import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type * as React from 'react';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';

import { Toaster } from '@/components/ui/sonner';
import { TooltipProvider } from '@/components/ui/tooltip';
import type { CurrentUser } from '@/data/user/current-user-query';
import { PageMetaProvider } from '@/lib/page-meta';
import { type SignedIn, SignedInContext } from '@/lib/signed-in';
import { WorkspaceProvider } from '@/lib/workspace';

/** A signed-in user as /api/v2/user/me answers, camelCased; override what a test needs. */
export function testUser(overrides: Partial<CurrentUser> = {}): CurrentUser {
  return {
    id: 1,
    username: 'ada',
    fullName: 'Ada Lovelace',
    preferredName: '',
    email: 'ada@example.com',
    isStaff: false,
    hasUsablePassword: true,
    shouldSeeNotebookPage: false,
    emailVerified: true,
    defaultAccount: null,
    defaultOrganization: null,
    profile: {
      avatarUrl: null,
      canContact: false,
      company: '',
      phoneNumber: '',
      title: '',
      workEmail: '',
      hasGitAccessToken: false,
      hasSshPublicKey: false,
    },
    cumulusHostedMonthlyLimit: null,
    dateJoined: '2026-01-01T00:00:00+00:00',
    lastLogin: null,
    ...overrides,
  };
}

function SignedInLayout({ value }: { value: SignedIn }) {
  return (
    <SignedInContext.Provider value={value}>
      <WorkspaceProvider>
        <PageMetaProvider>
          <Outlet />
        </PageMetaProvider>
      </WorkspaceProvider>
    </SignedInContext.Provider>
  );
}

type Options = {
  /** Where the page opens, and the routes around it (for pages that navigate). */
  url?: string;
  routes?: Array<{ path: string; element: React.ReactNode }>;
  signedIn?: Partial<SignedIn>;
};

/**
 * Renders pages inside what the signed-in shell provides (user and memberships, the current
 * workspace, page meta, tooltips, toasts, a fresh query client) on a memory router.
 */
export function renderSignedIn(
  element: React.ReactNode,
  { url = '/', routes = [], signedIn = {} }: Options = {},
) {
  const value: SignedIn = {
    user: testUser(),
    workspaceMemberships: [],
    organizationMemberships: [],
    ...signedIn,
  };
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [{ element: <SignedInLayout value={value} />, children: [{ path: '*', element }, ...routes] }],
    { initialEntries: [url] },
  );
  const view = render(
    <QueryClientProvider client={queryClient}>
      <TooltipProvider>
        <RouterProvider router={router} />
        <Toaster />
      </TooltipProvider>
    </QueryClientProvider>,
  );
  return { ...view, router, queryClient, value };
}
