import type { RouteObject } from 'react-router';

import { lazyPage } from '@/lib/lazy-page';
import { paths } from '@/lib/paths';

/** Signed-in routes of this area (composed in app/router.tsx). */
export const teamRoutes: RouteObject[] = [
  { path: paths.team, ...lazyPage(() => import('@/features/team/TeamPage'), 'TeamPage') },
  {
    path: paths.teamCreateOrganization,
    ...lazyPage(() => import('@/features/team/CreatePages'), 'CreateOrganizationPage'),
  },
  {
    path: paths.teamCreateWorkspace,
    ...lazyPage(() => import('@/features/team/CreatePages'), 'CreateWorkspacePage'),
  },
  {
    path: paths.teamAddMember,
    ...lazyPage(() => import('@/features/team/MemberFormPages'), 'AddMemberPage'),
  },
  {
    path: paths.teamEditMember,
    ...lazyPage(() => import('@/features/team/MemberFormPages'), 'EditMemberPage'),
  },
  {
    path: paths.teamEditInvite,
    ...lazyPage(() => import('@/features/team/MemberFormPages'), 'EditInvitePage'),
  },
];
