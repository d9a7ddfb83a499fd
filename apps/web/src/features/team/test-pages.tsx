import { CreateOrganizationPage } from '@/features/team/create/CreateOrganizationPage';
import { CreateWorkspacePage } from '@/features/team/create/CreateWorkspacePage';
import { AddMemberPage } from '@/features/team/members/AddMemberPage';
import { EditInvitePage } from '@/features/team/members/EditInvitePage';
import { EditMemberPage } from '@/features/team/members/EditMemberPage';
import { paths } from '@/lib/paths';
import { useScope } from '@/lib/scopes';
import { renderSignedIn } from '@/test/signed-in';

/** Where the pages return to: says which scope the user came back with. */
function TeamStandIn() {
  const { scope } = useScope();
  return <h1>Team page, scope {scope ? `${scope.type}:${scope.id}` : 'none'}</h1>;
}

const routes = [
  { path: paths.team, element: <TeamStandIn /> },
  { path: paths.teamCreateWorkspace, element: <CreateWorkspacePage /> },
  { path: paths.teamCreateOrganization, element: <CreateOrganizationPage /> },
  { path: paths.teamAddMember, element: <AddMemberPage /> },
  { path: paths.teamEditMember, element: <EditMemberPage /> },
  { path: paths.teamEditInvite, element: <EditInvitePage /> },
];

/** Opens a Team area page at `url` signed in, among the area's other pages (for its redirects). */
export const openTeamPage = (url: string) => renderSignedIn(null, { url, routes });
