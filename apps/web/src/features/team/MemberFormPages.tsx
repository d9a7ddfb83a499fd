import * as React from 'react';
import { generatePath, useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';

import { FormAlert } from '@/components/form-alert';
import { organizationScope, pickScope } from '@/features/scopes';
import {
  type UpdateMemberBody,
  useAddMember,
  useInvite,
  useMembership,
  useUpdateInvite,
  useUpdateMember,
} from '@/features/team/api';
import { MemberLimitDialog } from '@/features/team/limit-dialogs';
import { MemberFormFields } from '@/features/team/member-form';
import { MemberPageFrame, type NoticeState } from '@/features/team/member-page-frame';
import { addMemberBody, initialMemberValues, updateMemberBody } from '@/features/team/member-values';
import { errorText, requireParam, TEAM_MESSAGES } from '@/features/team/messages';
import { memberLimitReached } from '@/features/team/permissions';
import { memberSchema } from '@/features/team/schemas';
import { useTeam } from '@/features/team/use-team';
import { isApiError } from '@/lib/api/errors';
import { useZodForm } from '@/lib/forms';
import { paths } from '@/lib/paths';

type TeamData = NonNullable<ReturnType<typeof useTeam>['data']>;

/** After a save: the organization becomes the scope, and the user is back on the Team page. */
function useBackToTeam() {
  const navigate = useNavigate();
  return (organization: { id: number; name: string }) => {
    pickScope(organizationScope(organization));
    navigate(`${paths.team}?tab=team`);
  };
}

function useOrganizationIdParam() {
  return requireParam(useParams().organizationId, TEAM_MESSAGES.organizationIdRequired);
}

function AddMemberForm({ data }: { data: TeamData }) {
  const { organization, workspaces, permissions } = data;
  const navigate = useNavigate();
  const backToTeam = useBackToTeam();
  const add = useAddMember();
  const form = useZodForm(memberSchema, { defaultValues: initialMemberValues(workspaces) });
  const [formError, setFormError] = React.useState<string | null>(null);
  // Limit dialogs open by themselves when the limit is already reached (section 4).
  const [limitOpen, setLimitOpen] = React.useState(() => memberLimitReached(organization));

  const onSubmit = form.handleSubmit((values) => {
    setFormError(null);
    add.mutate(addMemberBody(values, organization.id), {
      onSuccess: (answer) => {
        toast.success(answer.invite ? `Invitation sent to ${answer.invite.invite.email}` : 'Member added');
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
          return navigate(to, { state: { notice: TEAM_MESSAGES.alreadyMember } satisfies NoticeState });
        }
        if (error.status === 409 && typeof inviteId === 'number') {
          const to = generatePath(paths.teamEditInvite, {
            organizationId: String(organization.id),
            inviteId: String(inviteId),
          });
          return navigate(to, { state: { notice: TEAM_MESSAGES.alreadyInvited } satisfies NoticeState });
        }
        if (error.code === 'MEMBER_LIMIT_REACHED') return setLimitOpen(true);
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

/** Editing a member or an invite: the same form, a different call. */
function EditForm({
  data,
  mode,
  success,
  existing,
  save,
}: {
  data: TeamData;
  mode: 'edit-member' | 'edit-invite';
  success: string;
  existing: Parameters<typeof initialMemberValues>[1];
  save: {
    mutate: (
      body: UpdateMemberBody,
      options: { onSuccess: () => void; onError: (error: Error) => void },
    ) => void;
    isPending: boolean;
  };
}) {
  const { organization, workspaces, permissions } = data;
  const backToTeam = useBackToTeam();
  const form = useZodForm(memberSchema, { defaultValues: initialMemberValues(workspaces, existing) });
  const [formError, setFormError] = React.useState<string | null>(null);

  const onSubmit = form.handleSubmit((values) => {
    setFormError(null);
    save.mutate(updateMemberBody(values), {
      onSuccess: () => {
        toast.success(success);
        backToTeam(organization);
      },
      onError: (error) => setFormError(errorText(error)),
    });
  });

  return (
    <>
      <FormAlert className="mb-6">{formError}</FormAlert>
      <MemberFormFields
        form={form}
        mode={mode}
        workspaces={workspaces}
        permissions={permissions}
        pending={save.isPending}
        onSubmit={onSubmit}
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
      {(data) => <AddMemberForm data={data} />}
    </MemberPageFrame>
  );
}

const EDIT_PAGES = {
  'edit-member': {
    title: 'Edit Organization Member',
    description: "Change this member's role, workspaces and limits.",
    success: 'Member updated',
  },
  'edit-invite': {
    title: 'Edit Invite',
    description: 'Change what this invitation grants once it is accepted.',
    success: 'Invite updated',
  },
} as const;

/**
 * /team/{organizationId}/edit-member/{memberId} and /team/{organizationId}/edit-invite/{inviteId}.
 * The invite page edits a pending invitation; it never creates one.
 */
function EditPage({ mode }: { mode: 'edit-member' | 'edit-invite' }) {
  const organizationId = useOrganizationIdParam();
  const params = useParams();
  const memberId =
    mode === 'edit-member' ? requireParam(params.memberId, TEAM_MESSAGES.memberIdRequired) : null;
  const inviteId =
    mode === 'edit-invite' ? requireParam(params.inviteId, TEAM_MESSAGES.inviteIdRequired) : null;
  const team = useTeam(organizationId);
  const membership = useMembership(memberId);
  const invite = useInvite(inviteId);
  const updateMember = useUpdateMember(organizationId, memberId ?? 0);
  const updateInvite = useUpdateInvite(organizationId, inviteId ?? 0);
  const read = mode === 'edit-member' ? membership : invite;
  const existing = membership.data
    ? {
        emailOrUsername: membership.data.user.username,
        role: membership.data.role,
        rows: membership.data.workspaceMemberships,
      }
    : invite.data
      ? {
          emailOrUsername: invite.data.invite.email,
          role: invite.data.role,
          rows: invite.data.workspaceInvites,
        }
      : null;
  const page = EDIT_PAGES[mode];

  return (
    <MemberPageFrame
      title={page.title}
      crumb="Edit Organization Member"
      description={page.description}
      team={team}
      extra={read}
    >
      {(data) =>
        existing ? (
          <EditForm
            data={data}
            mode={mode}
            success={page.success}
            save={mode === 'edit-member' ? updateMember : updateInvite}
            existing={existing}
          />
        ) : null
      }
    </MemberPageFrame>
  );
}

export const EditMemberPage = () => <EditPage mode="edit-member" />;
export const EditInvitePage = () => <EditPage mode="edit-invite" />;
