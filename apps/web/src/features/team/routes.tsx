import type { RouteObject } from 'react-router';

import { lazyPage } from '@/lib/lazy-page';
import { paths } from '@/lib/paths';

/** Signed-in routes of this area (composed in app/router.tsx): one folder per page family, one file per page. */
export const teamRoutes: RouteObject[] = [
  { path: paths.team, ...lazyPage(() => import('@/features/team/team/TeamPage'), 'TeamPage') },
  {
    path: paths.teamCreateOrganization,
    ...lazyPage(() => import('@/features/team/create/CreateOrganizationPage'), 'CreateOrganizationPage'),
  },
  {
    path: paths.teamCreateWorkspace,
    ...lazyPage(() => import('@/features/team/create/CreateWorkspacePage'), 'CreateWorkspacePage'),
  },
  {
    path: paths.teamAddMember,
    ...lazyPage(() => import('@/features/team/members/AddMemberPage'), 'AddMemberPage'),
  },
  {
    path: paths.teamEditMember,
    ...lazyPage(() => import('@/features/team/members/EditMemberPage'), 'EditMemberPage'),
  },
  {
    path: paths.teamEditInvite,
    ...lazyPage(() => import('@/features/team/members/EditInvitePage'), 'EditInvitePage'),
  },
];
