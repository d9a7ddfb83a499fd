import { useParams } from 'react-router';

import { useInviteQuery } from '@/data/organizations/invite-query';
import { useInviteUpdateMutation } from '@/data/organizations/invite-update-mutation';
import { EditMemberScreen } from '@/features/team/members/edit-member-screen';
import { useOrganizationIdParam } from '@/features/team/members/member-navigation';
import { requireParam, TEAM_MESSAGES } from '@/lib/team/messages';

/**
 * /team/{organizationId}/edit-invite/{inviteId}: what a pending invitation grants once accepted.
 * It edits the invitation; it never creates one.
 */
export function EditInvitePage() {
  const organizationId = useOrganizationIdParam();
  const inviteId = requireParam(useParams().inviteId, TEAM_MESSAGES.inviteIdRequired);
  const invite = useInviteQuery({ inviteId });
  const update = useInviteUpdateMutation();
  const { data } = invite;
  return (
    <EditMemberScreen
      organizationId={organizationId}
      mode="edit-invite"
      title="Edit Invite"
      description="Change what this invitation grants once it is accepted."
      success="Invite updated"
      read={invite}
      existing={
        data ? { emailOrUsername: data.invite.email, role: data.role, rows: data.workspaceInvites } : null
      }
      save={(body, callbacks) => update.mutate({ organizationId, inviteId, body }, callbacks)}
      pending={update.isPending}
    />
  );
}
