import * as React from 'react';
import { generatePath, Link, useNavigate } from 'react-router';
import { toast } from 'sonner';

import { FormAlert } from '@/components/form-alert';
import { Button } from '@/components/ui/button';
import { useMemberAddMutation } from '@/data/organizations/member-add-mutation';
import { MemberLimitDialog } from '@/features/team/limit-dialogs';
import { MemberFormFields } from '@/features/team/members/member-form';
import { useBackToTeam, useOrganizationIdParam } from '@/features/team/members/member-navigation';
import { MemberPageFrame, type NoticeState } from '@/features/team/members/member-page-frame';
import { addMemberBody, initialMemberValues } from '@/features/team/members/member-values';
import { memberSchema } from '@/features/team/schemas';
import { type TeamData, useTeam } from '@/features/team/use-team';
import { useMailKeptInLogCheck } from '@/hooks/use-mail-delivery';
import { isApiError } from '@/lib/api/errors';
import { useZodForm } from '@/lib/forms';
import { paths } from '@/lib/paths';
import { errorText, TEAM_MESSAGES } from '@/lib/team/messages';
import { memberLimitReached, TOOLTIPS } from '@/lib/team/permissions';

function AddMemberForm({ data }: { data: TeamData }) {
  const { organization, workspaces, permissions } = data;
  const navigate = useNavigate();
  const backToTeam = useBackToTeam();
  const add = useMemberAddMutation();
  const mailKept = useMailKeptInLogCheck();
  const form = useZodForm(memberSchema, { defaultValues: initialMemberValues(workspaces) });
  const [formError, setFormError] = React.useState<string | null>(null);
  // Limit dialogs open by themselves when the limit is already reached (section 4).
  const [limitOpen, setLimitOpen] = React.useState(() => memberLimitReached(organization));

  const onSubmit = form.handleSubmit((values) => {
    setFormError(null);
    add.mutate(addMemberBody(values, organization.id), {
      onSuccess: (answer) => {
        const invited = answer.invite?.invite.email;
        if (!invited) toast.success('Member added');
        else
          void mailKept().then((kept) =>
            kept
              ? toast.info(TEAM_MESSAGES.inviteKept(invited))
              : toast.success(TEAM_MESSAGES.inviteSent(invited)),
          );
        backToTeam(organization);
      },
      onError: (error) => {
        if (!isApiError(error)) return setFormError(errorText(error));
        const membershipId = error.body?.membership_id;
        const inviteId = error.body?.invite_id;
        if (error.status === 409 && typeof membershipId === 'number') {
          const to = generatePath(paths.teamEditMember, {
            organizationId: String(organization.id),
            memberId: String(membershipId),
          });
          return navigate(to, {
            state: { notice: TEAM_MESSAGES.alreadyMember, requested: values } satisfies NoticeState,
          });
        }
        if (error.status === 409 && typeof inviteId === 'number') {
          const to = generatePath(paths.teamEditInvite, {
            organizationId: String(organization.id),
            inviteId: String(inviteId),
          });
          return navigate(to, {
            state: { notice: TEAM_MESSAGES.alreadyInvited, requested: values } satisfies NoticeState,
          });
        }
        if (error.code === 'MEMBER_LIMIT_REACHED' || error.code === 'SEAT_LIMIT_REACHED')
          return setLimitOpen(true);
        const onField = error.fieldErrors('email_or_username')[0];
        if (error.code === 'COULD_NOT_FIND_USER' || onField) {
          return form.setError(
            'emailOrUsername',
            { type: 'server', message: onField ?? error.detail },
            { shouldFocus: true },
          );
        }
        setFormError(errorText(error));
      },
    });
  });

  return (
    <>
      <FormAlert className="mb-6">{formError}</FormAlert>
      <MemberFormFields
        form={form}
        mode="add"
        workspaces={workspaces}
        permissions={permissions}
        pending={add.isPending}
        onSubmit={onSubmit}
      />
      <MemberLimitDialog
        open={limitOpen}
        onOpenChange={setLimitOpen}
        organization={organization}
        isOrganizationAdmin={permissions.isOrganizationAdmin}
      />
    </>
  );
}

/** /team/{organizationId}/add-member */
export function AddMemberPage() {
  const organizationId = useOrganizationIdParam();
  const team = useTeam(organizationId);
  return (
    <MemberPageFrame
      title="Add Member"
      crumb="Add"
      description="Give someone access to the organization's workspaces, with their limits."
      team={team}
    >
      {(data) =>
        data.permissions.canManageMembers ? (
          <AddMemberForm data={data} />
        ) : (
          // Said before anything is typed, not refused on submit.
          <div className="grid justify-items-start gap-4">
            <p className="text-muted-foreground text-sm">{TOOLTIPS.addTeammates}</p>
            <Button asChild variant="outline">
              <Link to={`${paths.team}?tab=team`}>Back to Team</Link>
            </Button>
          </div>
        )
      }
    </MemberPageFrame>
  );
}
