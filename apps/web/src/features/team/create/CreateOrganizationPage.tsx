import { Building2Icon } from 'lucide-react';
import * as React from 'react';
import { generatePath, useNavigate } from 'react-router';
import { toast } from 'sonner';

import { useOrganizationCreateMutation } from '@/data/organizations/organization-create-mutation';
import { CreateFrame, showCreateFailure } from '@/features/team/create/create-frame';
import { NameForm } from '@/features/team/create/name-form';
import { organizationNameSchema } from '@/features/team/schemas';
import { teamCrumbs } from '@/features/team/team-crumbs';
import { useZodForm } from '@/lib/forms';
import { usePageMeta } from '@/lib/page-meta';
import { paths } from '@/lib/paths';
import { TEAM_MESSAGES } from '@/lib/team/messages';

/**
 * /team/create-organization: creates it, then goes on to its first workspace (Create Workspace).
 * The scope stays where it was: an organization without a workspace of the user's would leave the
 * sidebar on "No workspace of yours"; creating the workspace makes the organization the scope.
 */
export function CreateOrganizationPage() {
  usePageMeta({
    title: 'Create Organization',
    breadcrumbs: teamCrumbs(null, { label: 'Create Organization' }),
  });
  const navigate = useNavigate();
  const create = useOrganizationCreateMutation();
  const form = useZodForm(organizationNameSchema, { defaultValues: { name: '' } });
  const [formError, setFormError] = React.useState<string | null>(null);

  const onSubmit = ({ name }: { name: string }) => {
    setFormError(null);
    create.mutate(
      { name },
      {
        onSuccess: (organization) => {
          toast.success(TEAM_MESSAGES.organizationCreated);
          navigate(generatePath(paths.teamCreateWorkspace, { organizationId: String(organization.id) }));
        },
        onError: (error) => showCreateFailure(form, setFormError, error),
      },
    );
  };

  return (
    <CreateFrame
      icon={Building2Icon}
      title="Create Organization"
      description="Organizations hold workspaces, members and a plan. You will be its admin."
    >
      <NameForm
        form={form}
        label="Organization name"
        submitLabel="Create Organization"
        pending={create.isPending}
        formError={formError}
        onSubmit={onSubmit}
      />
    </CreateFrame>
  );
}
