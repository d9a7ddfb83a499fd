import { useOrganizationInvitesQuery } from '@/data/organizations/organization-invites-query';
import { useOrganizationMembersQuery } from '@/data/organizations/organization-members-query';
import { useOrganizationQuery } from '@/data/organizations/organization-query';
import { useOrganizationWorkspacesQuery } from '@/data/organizations/organization-workspaces-query';
import { useSignedIn } from '@/lib/signed-in';
import { teamPermissions } from '@/lib/team/permissions';

/** What the Team screens show of an organization once everything has loaded. */
export type TeamData = NonNullable<ReturnType<typeof useTeam>['data']>;

/** Everything the Team screens show of one organization, and what the user may do in it. */
export function useTeam(organizationId: number | null) {
  const { user } = useSignedIn();
  const organization = useOrganizationQuery({ organizationId });
  const workspaces = useOrganizationWorkspacesQuery({ organizationId });
  const members = useOrganizationMembersQuery({ organizationId });
  const invites = useOrganizationInvitesQuery({ organizationId });
  const queries = [organization, workspaces, members, invites];
  const failed = queries.find((query) => query.isError);
  const data =
    organization.data && workspaces.data && members.data && invites.data
      ? {
          organization: organization.data,
          workspaces: workspaces.data,
          members: members.data,
          invites: invites.data,
          permissions: teamPermissions(user.id, organization.data, workspaces.data),
        }
      : null;
  return {
    data,
    organization: organization.data ?? null,
    error: failed?.error ?? null,
    retry: () => {
      for (const query of queries) if (query.isError) void query.refetch();
    },
    retrying: queries.some((query) => query.isFetching),
  };
}
