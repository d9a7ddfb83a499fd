import * as React from 'react';
import { Outlet, useNavigate } from 'react-router';

import { AppSidebar } from '@/app/shell/app-sidebar';
import { Banners } from '@/app/shell/banners';
import { ScopeWorkspaceSync } from '@/app/shell/scope-workspace-sync';
import { ShellSkeleton } from '@/app/shell/shell-skeleton';
import { TopBar } from '@/app/shell/top-bar';
import { WelcomeDialog } from '@/app/shell/welcome-dialog';
import { ErrorState } from '@/components/error-state';
import { Page } from '@/components/page';
import { readSidebarCookie, SidebarInset, SidebarProvider } from '@/components/ui/sidebar';
import { Toaster } from '@/components/ui/sonner';
import { useInteractionTypesQuery } from '@/data/interactions/interaction-types-query';
import { useInteractionsQuery } from '@/data/interactions/interactions-query';
import { useCurrentUserQuery } from '@/data/user/current-user-query';
import { useOrganizationMembershipsQuery } from '@/data/user/organization-memberships-query';
import { useWorkspaceMembershipsQuery } from '@/data/user/workspace-memberships-query';
import { errorMessage } from '@/lib/api/errors';
import { PageMetaProvider } from '@/lib/page-meta';
import { paths } from '@/lib/paths';
import { SignedInContext } from '@/lib/signed-in';
import { readStored, STORAGE_KEYS } from '@/lib/storage';
import { WorkspaceProvider } from '@/lib/workspace';

/**
 * Set by the billing-redirect screen for a signed-out visitor: go to billing once. The Billing page
 * forgets it when it shows (not here: while its code loads, the page being left stays mounted, and
 * the home redirect must still see the choice rather than send the visitor to Get Started).
 */
function useBillingFlag() {
  const navigate = useNavigate();
  React.useEffect(() => {
    if (readStored(STORAGE_KEYS.upgrade) === 'true') navigate(paths.billing, { replace: true });
  }, [navigate]);
}

/**
 * The signed-in console: a loading skeleton until the user,
 * memberships, organization memberships and interactions have loaded; then the sidebar, the top
 * bar, the banners and the page.
 */
export function AppShell() {
  const user = useCurrentUserQuery();
  const workspaceMemberships = useWorkspaceMembershipsQuery();
  const organizationMemberships = useOrganizationMembershipsQuery();
  // Interactions may fail (then every notice counts as seen), but the shell waits for them.
  const interactionTypes = useInteractionTypesQuery();
  const interactions = useInteractionsQuery();
  useBillingFlag();

  const required = [user, workspaceMemberships, organizationMemberships];
  const failed = required.find((query) => query.isError);
  if (failed) {
    return (
      <Page className="min-h-svh max-w-xl justify-center">
        <ErrorState
          title="Oops! An unknown error occurred loading the app."
          message={errorMessage(failed.error)}
          onRetry={() => {
            for (const query of required) if (query.isError) void query.refetch();
          }}
        />
      </Page>
    );
  }
  if (
    !user.data ||
    !workspaceMemberships.data ||
    !organizationMemberships.data ||
    interactionTypes.isPending ||
    interactions.isPending
  ) {
    return <ShellSkeleton />;
  }
  const signedIn = {
    user: user.data,
    workspaceMemberships: workspaceMemberships.data,
    organizationMemberships: organizationMemberships.data,
  };

  return (
    <SignedInContext.Provider value={signedIn}>
      <WorkspaceProvider>
        <ScopeWorkspaceSync />
        <PageMetaProvider>
          <SidebarProvider defaultOpen={readSidebarCookie()}>
            <AppSidebar />
            <SidebarInset className="min-w-0">
              <TopBar />
              <Banners />
              <Outlet />
            </SidebarInset>
            <WelcomeDialog />
            <Toaster position="bottom-right" />
          </SidebarProvider>
        </PageMetaProvider>
      </WorkspaceProvider>
    </SignedInContext.Provider>
  );
}
