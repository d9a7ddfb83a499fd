import { FolderPlusIcon } from 'lucide-react';
import * as React from 'react';
import { useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';

import { ErrorState } from '@/components/error-state';
import { LoadingSkeleton } from '@/components/loading-skeleton';
import { useWorkspaceCreateMutation } from '@/data/organizations/workspace-create-mutation';
import { CreateFrame, showCreateFailure } from '@/features/team/create/create-frame';
import { NameForm } from '@/features/team/create/name-form';
import { SHOW_DEFAULT_WORKSPACE_BANNER } from '@/features/team/default-workspace-banner';
import { WorkspaceLimitDialog } from '@/features/team/limit-dialogs';
import { workspaceNameSchema } from '@/features/team/schemas';
import { teamCrumbs } from '@/features/team/team-crumbs';
import { useTeam } from '@/features/team/use-team';
import { isApiError } from '@/lib/api/errors';
import { useZodForm } from '@/lib/forms';
import { usePageMeta } from '@/lib/page-meta';
import { paths } from '@/lib/paths';
import { organizationScope, pickScope } from '@/lib/scopes';
import { errorText, requireParam, TEAM_MESSAGES } from '@/lib/team/messages';
import { workspaceLimitReached } from '@/lib/team/permissions';

/** /team/{organizationId}/create-workspace */
export function CreateWorkspacePage() {
  const organizationId = requireParam(useParams().organizationId, TEAM_MESSAGES.organizationIdRequired);
  const team = useTeam(organizationId);
  const navigate = useNavigate();
  const create = useWorkspaceCreateMutation();
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
    create.mutate(
      { organizationId, name },
      {
        onSuccess: () => {
          toast.success(TEAM_MESSAGES.workspaceCreated);
          if (organization) pickScope(organizationScope(organization));
          navigate(`${paths.team}?${SHOW_DEFAULT_WORKSPACE_BANNER}=true`);
        },
        onError: (error) => {
          if (isApiError(error) && error.code === 'WORKSPACE_LIMIT_REACHED') return setLimitOpen(true);
          const unique = isApiError(error) && error.code === 'REQUIRE_UNIQUE_ACCOUNT_NAMES';
          showCreateFailure(
            form,
            setFormError,
            error,
            unique ? TEAM_MESSAGES.uniqueWorkspaceName : undefined,
          );
        },
      },
    );
  };

  return (
    <CreateFrame
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
    </CreateFrame>
  );
}
