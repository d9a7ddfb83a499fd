import { useParams } from 'react-router';

import { useMemberUpdateMutation } from '@/data/organizations/member-update-mutation';
import { useMembershipQuery } from '@/data/organizations/membership-query';
import { EditMemberScreen } from '@/features/team/members/edit-member-screen';
import { useOrganizationIdParam } from '@/features/team/members/member-navigation';
import { requireParam, TEAM_MESSAGES } from '@/lib/team/messages';

/** /team/{organizationId}/edit-member/{memberId}: a member's role, workspaces and limits. */
export function EditMemberPage() {
  const organizationId = useOrganizationIdParam();
  const memberId = requireParam(useParams().memberId, TEAM_MESSAGES.memberIdRequired);
  const membership = useMembershipQuery({ membershipId: memberId });
  const update = useMemberUpdateMutation();
  const { data } = membership;
  return (
    <EditMemberScreen
      organizationId={organizationId}
      mode="edit-member"
      title="Edit Organization Member"
      description="Change this member's role, workspaces and limits."
      success="Member updated"
      read={membership}
      existing={
        data
          ? { emailOrUsername: data.user.username, role: data.role, rows: data.workspaceMemberships }
          : null
      }
      save={(body, callbacks) => update.mutate({ organizationId, membershipId: memberId, body }, callbacks)}
      pending={update.isPending}
    />
  );
}
