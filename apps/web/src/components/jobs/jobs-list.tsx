import { SearchXIcon } from 'lucide-react';

import { EmptyState } from '@/components/empty-state';
import { ErrorState } from '@/components/error-state';
import { JobsEmpty } from '@/components/jobs/jobs-empty';
import { JobsTable } from '@/components/jobs/jobs-table';
import { LoadingSkeleton } from '@/components/loading-skeleton';
import { StateChip } from '@/components/state-chip';
import { Button } from '@/components/ui/button';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { useJobsQuery } from '@/data/jobs/jobs-query';
import { errorMessage } from '@/lib/api/errors';
import { jobsQuery, useJobsSearch } from '@/lib/jobs/search-params';
import { JOB_STATES, jobsPollMs } from '@/lib/jobs/states';

const ALL = 'all';

type JobsListProps = {
  /** The workspace listed (its slug); undefined: every workspace the caller reads; null: not known yet. */
  workspace: string | undefined | null;
  /** "Acme", "all your workspaces": where the empty state says there are no jobs. */
  scopeLabel: string;
  showWorkspace: boolean;
  /** Why the workspace could not be known, if it could not. */
  scopeError?: Error | null;
};

/**
 * Batch jobs, a page at a time, filtered by state from the URL; refreshed every 2 s while a job on
 * the page is pending or running. The Batch Jobs page and the Dashboard's Jobs tab show it.
 */
export function JobsList({ workspace, scopeLabel, showWorkspace, scopeError = null }: JobsListProps) {
  const { search, setPage, setPageSize, setState } = useJobsSearch();
  const jobs = useJobsQuery(
    { query: workspace === null ? null : jobsQuery(search, workspace) },
    { refetchInterval: (query) => jobsPollMs(query.state.data?.items ?? []) },
  );
  const failure = jobs.error ?? (workspace === null ? scopeError : null);
  const total = jobs.data?.count ?? 0;
  const nothingYet = jobs.isSuccess && total === 0 && search.state === null && search.page === 0;

  if (failure)
    return (
      <ErrorState
        title="Could not load batch jobs"
        message={errorMessage(failure)}
        onRetry={() => void jobs.refetch()}
        retrying={jobs.isFetching}
      />
    );
  if (jobs.isPending) return <LoadingSkeleton variant="table" columns={7} />;
  if (nothingYet) return <JobsEmpty scope={scopeLabel} />;
  return (
    <div className="flex flex-col gap-4">
      <Select
        value={search.state ?? ALL}
        onValueChange={(value) => setState(value === ALL ? null : (value as typeof search.state))}
      >
        <SelectTrigger aria-label="State" className="w-44">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value={ALL}>All states</SelectItem>
          {JOB_STATES.map((state) => (
            <SelectItem key={state} value={state}>
              <StateChip state={state} />
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      <JobsTable
        jobs={jobs.data?.items ?? []}
        total={total}
        page={search.page}
        pageSize={search.pageSize}
        onPageChange={setPage}
        onPageSizeChange={setPageSize}
        // Dim the rows while another page or state loads, not on every background refresh.
        loading={jobs.isPlaceholderData && jobs.isFetching}
        showWorkspace={showWorkspace}
        workspaceSlug={workspace ?? undefined}
        empty={
          <EmptyState
            icon={SearchXIcon}
            title={search.state ? `No ${search.state} batch jobs` : 'No batch jobs on this page'}
            action={
              search.state ? (
                <Button variant="outline" size="sm" onClick={() => setState(null)}>
                  Show every state
                </Button>
              ) : (
                <Button variant="outline" size="sm" onClick={() => setPage(0)}>
                  First page
                </Button>
              )
            }
            className="border-0 py-6"
          />
        }
      />
    </div>
  );
}
