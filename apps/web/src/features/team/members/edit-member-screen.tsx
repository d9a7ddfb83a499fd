import * as React from 'react';
import { useLocation } from 'react-router';
import { toast } from 'sonner';

import { FormAlert } from '@/components/form-alert';
import type { UpdateMemberBody } from '@/data/organizations/member-update-mutation';
import { MemberFormFields } from '@/features/team/members/member-form';
import { useBackToTeam } from '@/features/team/members/member-navigation';
import { MemberPageFrame, type NoticeState } from '@/features/team/members/member-page-frame';
import { initialMemberValues, updateMemberBody, withRequested } from '@/features/team/members/member-values';
import { memberSchema } from '@/features/team/schemas';
import { type TeamData, useTeam } from '@/features/team/use-team';
import { useZodForm } from '@/lib/forms';
import { errorText } from '@/lib/team/messages';

type Save = (
  body: UpdateMemberBody,
  callbacks: { onSuccess: () => void; onError: (error: Error) => void },
) => void;

type EditMemberFormProps = {
  data: TeamData;
  mode: 'edit-member' | 'edit-invite';
  /** The toast after saving. */
  success: string;
  existing: NonNullable<Parameters<typeof initialMemberValues>[1]>;
  save: Save;
  pending: boolean;
};

type EditMemberScreenProps = Omit<EditMemberFormProps, 'data' | 'existing'> & {
  organizationId: number;
  title: string;
  description: string;
  /** The read of the member or invite being edited; `existing` is its rows once loaded. */
  read: { isPending: boolean; error: unknown; refetch: () => unknown };
  existing: EditMemberFormProps['existing'] | null;
};

/** The Edit Member and Edit Invite pages: the same frame and form, a different read and call. */
export function EditMemberScreen({
  organizationId,
  title,
  description,
  read,
  existing,
  ...form
}: EditMemberScreenProps) {
  const team = useTeam(organizationId);
  return (
    <MemberPageFrame
      title={title}
      crumb="Edit Organization Member"
      description={description}
      team={team}
      extra={read}
    >
      {(data) => (existing ? <EditMemberForm data={data} existing={existing} {...form} /> : null)}
    </MemberPageFrame>
  );
}

function EditMemberForm({ data, mode, success, existing, save, pending }: EditMemberFormProps) {
  const { organization, workspaces, permissions } = data;
  const backToTeam = useBackToTeam();
  const requested = (useLocation().state as NoticeState)?.requested;
  const form = useZodForm(memberSchema, {
    defaultValues: withRequested(initialMemberValues(workspaces, existing), requested),
  });
  const [formError, setFormError] = React.useState<string | null>(null);

  const onSubmit = form.handleSubmit((values) => {
    setFormError(null);
    save(updateMemberBody(values), {
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
        pending={pending}
        onSubmit={onSubmit}
      />
    </>
  );
}
