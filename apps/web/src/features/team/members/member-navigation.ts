import { useNavigate, useParams } from 'react-router';
import { paths } from '@/lib/paths';
import { organizationScope, pickScope } from '@/lib/scopes';
import { requireParam, TEAM_MESSAGES } from '@/lib/team/messages';

/** The organization of /team/{organizationId}/...; the page cannot work without it. */
export function useOrganizationIdParam() {
  return requireParam(useParams().organizationId, TEAM_MESSAGES.organizationIdRequired);
}

/** After a save: the organization becomes the scope, and the user is back on the Team page's Team tab. */
export function useBackToTeam() {
  const navigate = useNavigate();
  return (organization: { id: number; name: string }) => {
    pickScope(organizationScope(organization));
    navigate(`${paths.team}?tab=team`);
  };
}
