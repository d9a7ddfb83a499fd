import type { RouteObject } from 'react-router';

import { paths } from '@/app/paths';

const page = <Name extends string>(load: () => Promise<Record<Name, React.ComponentType>>, name: Name) => ({
  lazy: async () => ({ Component: (await load())[name] }),
});

/** Signed-in routes of this area (composed in app/router.tsx). */
export const teamRoutes: RouteObject[] = [
  { path: paths.team, ...page(() => import('@/features/team/TeamPage'), 'TeamPage') },
  {
    path: paths.teamCreateOrganization,
    ...page(() => import('@/features/team/CreatePages'), 'CreateOrganizationPage'),
  },
  {
    path: paths.teamCreateWorkspace,
    ...page(() => import('@/features/team/CreatePages'), 'CreateWorkspacePage'),
  },
  { path: paths.teamAddMember, ...page(() => import('@/features/team/MemberFormPages'), 'AddMemberPage') },
  { path: paths.teamEditMember, ...page(() => import('@/features/team/MemberFormPages'), 'EditMemberPage') },
  { path: paths.teamEditInvite, ...page(() => import('@/features/team/MemberFormPages'), 'EditInvitePage') },
];
