import type { RouteObject } from 'react-router';
import { NotFoundPage } from '@/app/NotFoundPage';
import { HomeRedirect } from '@/app/shell/HomeRedirect';
import { batchRoutes } from '@/features/batch/routes';
import { billingRoutes } from '@/features/billing/routes';
import { clustersRoutes } from '@/features/clusters/routes';
import { getStartedRoutes } from '@/features/get-started/routes';
import { notebooksRoutes } from '@/features/notebooks/routes';
import { profileRoutes } from '@/features/profile/routes';
import { setupRoutes } from '@/features/setup/routes';
import { softwareRoutes } from '@/features/software/routes';
import { staffRoutes } from '@/features/staff/routes';
import { teamRoutes } from '@/features/team/routes';
import { usageRoutes } from '@/features/usage/routes';
import { usePageMeta } from '@/lib/page-meta';

function ShellNotFound() {
  usePageMeta({ title: 'Not found', breadcrumbs: [{ label: 'Not found' }] });
  return <NotFoundPage inShell />;
}

/** The pages inside the signed-in shell (sidebar, top bar): each feature's routes.tsx. */
export const shellPages: RouteObject[] = [
  // The root: Billing after an upgrade link, clusters after three clusters, else Get Started.
  { index: true, Component: HomeRedirect },
  ...profileRoutes,
  ...getStartedRoutes,
  ...clustersRoutes,
  ...notebooksRoutes,
  ...softwareRoutes,
  ...setupRoutes,
  ...billingRoutes,
  ...usageRoutes,
  ...teamRoutes,
  ...batchRoutes,
  ...staffRoutes,
  // Any unknown path says so, with a link home (not a silent jump to Get Started).
  { path: '*', Component: ShellNotFound },
];
