import type * as React from 'react';
import { useLocation } from 'react-router';

import { Banner } from '@/components/banner';
import { ErrorState } from '@/components/error-state';
import { LoadingSkeleton } from '@/components/loading-skeleton';
import { Page, PageHeader } from '@/components/page';
import type { MemberValues } from '@/features/team/schemas';
import { membersCrumb, teamCrumbs } from '@/features/team/team-crumbs';
import type { TeamData, useTeam } from '@/features/team/use-team';
import { errorMessage } from '@/lib/api/errors';
import { usePageMeta } from '@/lib/page-meta';

/**
 * What a page hands the next one: the 409 redirect's explanation, and what the user had entered
 * on the Add page (the access they ticked), which the edit page starts from so none of it is lost.
 */
export type NoticeState = { notice?: string; requested?: MemberValues } | null;

type FrameProps = {
  title: string;
  /** The last breadcrumb: 'Add' or 'Edit Organization Member'. */
  crumb: string;
  description: string;
  team: ReturnType<typeof useTeam>;
  /** Other reads the page waits for (the membership or the invite being edited). */
  extra?: { isPending: boolean; error: unknown; refetch: () => unknown };
  children: (team: TeamData) => React.ReactNode;
};

/** The member pages' frame: breadcrumbs, the redirect notice, loading and error states. */
export function MemberPageFrame({ title, crumb, description, team, extra, children }: FrameProps) {
  const location = useLocation();
  const notice = (location.state as NoticeState)?.notice;
  usePageMeta({
    title,
    breadcrumbs: teamCrumbs(team.organization?.name ?? null, membersCrumb, { label: crumb }),
  });
  const error = team.error ?? extra?.error ?? null;

  let body: React.ReactNode;
  if (error) {
    body = (
      <ErrorState
        message={errorMessage(error)}
        onRetry={() => {
          team.retry();
          void extra?.refetch();
        }}
      />
    );
  } else if (!team.data || extra?.isPending) {
    body = <LoadingSkeleton variant="page" rows={3} />;
  } else {
    body = children(team.data);
  }

  return (
    <Page className="max-w-4xl">
      <PageHeader title={title} description={description} />
      {notice ? <Banner tone="info" title={notice} /> : null}
      <div className="bg-card rounded-xl border p-6">{body}</div>
    </Page>
  );
}
