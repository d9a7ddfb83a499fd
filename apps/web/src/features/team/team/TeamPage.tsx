import { Building2Icon } from 'lucide-react';
import type * as React from 'react';
import { useSearchParams } from 'react-router';

import { EmptyState } from '@/components/empty-state';
import { ErrorState } from '@/components/error-state';
import { LoadingSkeleton } from '@/components/loading-skeleton';
import { Page, PageHeader } from '@/components/page';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { DefaultWorkspaceBanner } from '@/features/team/default-workspace-banner';
import { AddMenu } from '@/features/team/team/add-menu';
import { OrganizationPicker } from '@/features/team/team/organization-picker';
import { PlanUsage } from '@/features/team/team/plan-usage';
import { SsoTab } from '@/features/team/team/sso-tab';
import { TeamTab } from '@/features/team/team/team-tab';
import { WorkspacesTab } from '@/features/team/team/workspaces-tab';
import { useTeam } from '@/features/team/use-team';
import { errorMessage } from '@/lib/api/errors';
import { usePageMeta } from '@/lib/page-meta';
import { organizationIdOf, useScope } from '@/lib/scopes';

const TABS = ['workspaces', 'team', 'sso'] as const;
type Tab = (typeof TABS)[number];
const TAB_PARAM = 'tab';

/** The Team page: the organization of the current scope. */
export function TeamPage() {
  usePageMeta({ title: 'Team' });
  const { scope, isPending: scopePending } = useScope();
  const organizationId = organizationIdOf(scope);
  const team = useTeam(organizationId);
  const [params, setParams] = useSearchParams();
  const tab: Tab = TABS.find((candidate) => candidate === params.get(TAB_PARAM)) ?? 'workspaces';

  const selected =
    organizationId === null
      ? null
      : {
          id: organizationId,
          name: team.organization?.name ?? scope?.name ?? `Organization ${organizationId}`,
        };

  let body: React.ReactNode;
  if (organizationId === null) {
    body = scopePending ? (
      <LoadingSkeleton />
    ) : (
      <EmptyState icon={Building2Icon} title="Select an organization to view team information." />
    );
  } else if (team.error) {
    body = <ErrorState message={errorMessage(team.error)} onRetry={team.retry} retrying={team.retrying} />;
  } else if (!team.data) {
    body = <LoadingSkeleton variant="cards" rows={2} />;
  } else {
    const { organization, workspaces, members, invites, permissions } = team.data;
    body = (
      <Tabs
        value={tab}
        onValueChange={(next) =>
          setParams(
            (current) => {
              current.set(TAB_PARAM, next);
              return current;
            },
            { replace: true },
          )
        }
        className="gap-4"
      >
        <div className="flex flex-wrap items-center justify-between gap-3">
          <TabsList>
            <TabsTrigger value="workspaces" className="px-4">
              Workspaces
            </TabsTrigger>
            <TabsTrigger value="team" className="px-4">
              Team
            </TabsTrigger>
            {permissions.isOrganizationAdmin ? (
              <TabsTrigger value="sso" className="px-4">
                Single sign-on
              </TabsTrigger>
            ) : null}
          </TabsList>
          <PlanUsage organization={organization} />
        </div>
        <TabsContent value="workspaces">
          <WorkspacesTab
            organizationId={organization.id}
            workspaces={workspaces}
            members={members}
            invites={invites}
            permissions={permissions}
          />
        </TabsContent>
        <TabsContent value="team">
          <TeamTab
            organizationId={organization.id}
            organizationName={organization.name}
            members={members}
            invites={invites}
            workspaces={workspaces}
            permissions={permissions}
          />
        </TabsContent>
        {permissions.isOrganizationAdmin ? (
          <TabsContent value="sso">
            <SsoTab organizationId={organization.id} workspaces={workspaces} />
          </TabsContent>
        ) : null}
      </Tabs>
    );
  }

  return (
    <Page>
      <PageHeader
        title="Team"
        description="Organizations, their workspaces and the people in them."
        actions={
          <>
            <OrganizationPicker selected={selected} />
            <AddMenu
              organizationId={organizationId}
              permissions={team.data?.permissions ?? null}
              workspaceCount={team.data?.workspaces.length ?? 0}
            />
          </>
        }
      />
      <DefaultWorkspaceBanner />
      {body}
    </Page>
  );
}
