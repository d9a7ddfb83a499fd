import { Building2Icon, FolderPlusIcon } from 'lucide-react';
import * as React from 'react';
import { useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';

import { ErrorState } from '@/components/error-state';
import { LoadingSkeleton } from '@/components/loading-skeleton';
import { Page, PageHeader } from '@/components/page';
import { organizationScope, pickScope } from '@/features/scopes';
import { useCreateOrganization, useCreateWorkspace } from '@/features/team/api';
import { SHOW_DEFAULT_WORKSPACE_BANNER } from '@/features/team/default-workspace-banner';
import { WorkspaceLimitDialog } from '@/features/team/limit-dialogs';
import { errorText, requireParam, TEAM_MESSAGES } from '@/features/team/messages';
import { NameForm } from '@/features/team/name-form';
import { workspaceLimitReached } from '@/features/team/permissions';
import { organizationNameSchema, workspaceNameSchema } from '@/features/team/schemas';
import { teamCrumbs } from '@/features/team/team-crumbs';
import { useTeam } from '@/features/team/use-team';
import { isApiError } from '@/lib/api/errors';
import { useZodForm } from '@/lib/forms';
import { usePageMeta } from '@/lib/page-meta';
import { paths } from '@/lib/paths';

function Frame({
  icon: Icon,
  title,
  description,
  children,
}: {
  icon: typeof FolderPlusIcon;
  title: string;
  description: string;
  children: React.ReactNode;
}) {
  return (
    <Page className="max-w-xl">
      <PageHeader
        title={
          <span className="flex items-center gap-3">
            <span className="bg-primary/10 text-primary flex size-9 items-center justify-center rounded-lg">
              <Icon className="size-5" aria-hidden="true" />
            </span>
            {title}
          </span>
        }
        description={description}
      />
      <div className="bg-card rounded-xl border p-6">{children}</div>
    </Page>
  );
}

/** A failed create: a message about the name goes on the field, anything else above the form. */
function failed(
  form: { setError: ReturnType<typeof useZodForm<typeof workspaceNameSchema>>['setError'] },
  setFormError: (message: string) => void,
  error: unknown,
  nameMessage = isApiError(error) ? error.fieldErrors('name')[0] : undefined,
) {
  if (nameMessage) form.setError('name', { type: 'server', message: nameMessage }, { shouldFocus: true });
  else setFormError(errorText(error));
}

/** /team/{organizationId}/create-workspace */
export function CreateWorkspacePage() {
  const organizationId = requireParam(useParams().organizationId, TEAM_MESSAGES.organizationIdRequired);
  const team = useTeam(organizationId);
  const navigate = useNavigate();
  const create = useCreateWorkspace(organizationId);
  const form = useZodForm(workspaceNameSchema, { defaultValues: { name: '' } });
  const [formError, setFormError] = React.useState<string | null>(null);
  const [limitOpen, setLimitOpen] = React.useState(false);
  const organization = team.data?.organization ?? null;
  usePageMeta({
    title: 'Create Workspace',
    breadcrumbs: teamCrumbs(organization?.name ?? null, { label: 'Create Workspace' }),
  });

  // The Workspace Limit Reached dialog opens by itself when the plan allows no more (section 4).
  const reached = organization !== null && workspaceLimitReached(organization);
  React.useEffect(() => {
    if (reached) setLimitOpen(true);
  }, [reached]);

  const onSubmit = ({ name }: { name: string }) => {
    setFormError(null);
    create.mutate(name, {
      onSuccess: () => {
        toast.success(TEAM_MESSAGES.workspaceCreated);
        if (organization) pickScope(organizationScope(organization));
        navigate(`${paths.team}?${SHOW_DEFAULT_WORKSPACE_BANNER}=true`);
      },
      onError: (error) => {
        if (isApiError(error) && error.code === 'WORKSPACE_LIMIT_REACHED') return setLimitOpen(true);
        const unique = isApiError(error) && error.code === 'REQUIRE_UNIQUE_ACCOUNT_NAMES';
        failed(form, setFormError, error, unique ? TEAM_MESSAGES.uniqueWorkspaceName : undefined);
      },
    });
  };

  return (
    <Frame
      icon={FolderPlusIcon}
      title="Create Workspace"
      description={organization ? `A new workspace in ${organization.name}.` : 'A new workspace.'}
    >
      {team.error ? (
        <ErrorState message={errorText(team.error)} onRetry={team.retry} />
      ) : !team.data ? (
        <LoadingSkeleton variant="page" rows={1} />
      ) : (
        <>
          <NameForm
            form={form}
            label="Workspace name"
            submitLabel="Create Workspace"
            pending={create.isPending}
            formError={formError}
            onSubmit={onSubmit}
          />
          <WorkspaceLimitDialog
            open={limitOpen}
            onOpenChange={setLimitOpen}
            organization={team.data.organization}
            isOrganizationAdmin={team.data.permissions.isOrganizationAdmin}
          />
        </>
      )}
    </Frame>
  );
}

/** /team/create-organization: creates it, makes it the scope, returns to the Team page. */
export function CreateOrganizationPage() {
  usePageMeta({
    title: 'Create Organization',
    breadcrumbs: teamCrumbs(null, { label: 'Create Organization' }),
  });
  const navigate = useNavigate();
  const create = useCreateOrganization();
  const form = useZodForm(organizationNameSchema, { defaultValues: { name: '' } });
  const [formError, setFormError] = React.useState<string | null>(null);

  const onSubmit = ({ name }: { name: string }) => {
    setFormError(null);
    create.mutate(name, {
      onSuccess: (organization) => {
        toast.success(TEAM_MESSAGES.organizationCreated);
        pickScope(organizationScope(organization));
        navigate(paths.team);
      },
      onError: (error) => failed(form, setFormError, error),
    });
  };

  return (
    <Frame
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
    </Frame>
  );
}
