import { Building2Icon } from 'lucide-react';
import * as React from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';

import { useOrganizationCreateMutation } from '@/data/organizations/organization-create-mutation';
import { CreateFrame, showCreateFailure } from '@/features/team/create/create-frame';
import { NameForm } from '@/features/team/create/name-form';
import { organizationNameSchema } from '@/features/team/schemas';
import { teamCrumbs } from '@/features/team/team-crumbs';
import { useZodForm } from '@/lib/forms';
import { usePageMeta } from '@/lib/page-meta';
import { paths } from '@/lib/paths';
import { organizationScope, pickScope } from '@/lib/scopes';
import { TEAM_MESSAGES } from '@/lib/team/messages';

/** /team/create-organization: creates it, makes it the scope, returns to the Team page. */
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
          pickScope(organizationScope(organization));
          navigate(paths.team);
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
