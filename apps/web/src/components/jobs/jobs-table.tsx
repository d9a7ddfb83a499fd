import type * as React from 'react';
import { Link } from 'react-router';

import { DataTable, type DataTableColumn } from '@/components/data-table';
import { TaskTally } from '@/components/jobs/task-tally';
import { StateChip } from '@/components/state-chip';
import type { JobSummary } from '@/data/jobs/jobs-query';
import { formatDuration, timeAgo } from '@/lib/format';
import { jobClusterLink, jobLink } from '@/lib/jobs/links';
import { elapsedSeconds } from '@/lib/jobs/states';
import { useFormatDateTime } from '@/lib/preferences';

const NONE = <span className="text-muted-foreground">—</span>;

type JobsTableProps = {
  jobs: JobSummary[];
  total: number;
  page: number;
  pageSize: number;
  onPageChange: (page: number) => void;
  onPageSizeChange: (pageSize: number) => void;
  loading: boolean;
  /** Jobs of several workspaces are listed: name each one's workspace. */
  showWorkspace: boolean;
  /** The one workspace listed, when it is one: cluster links select it. */
  workspaceSlug?: string;
  empty: React.ReactNode;
};

/** One page of batch jobs: state, tasks, command, who and when, and the cluster each runs on. */
export function JobsTable({ jobs, showWorkspace, workspaceSlug, ...table }: JobsTableProps) {
  const formatDateTime = useFormatDateTime();
  const columns: DataTableColumn<JobSummary>[] = [
    {
      id: 'job',
      header: showWorkspace ? 'Job · workspace' : 'Job',
      cell: (job) => (
        <div className="flex min-w-0 flex-col">
          <Link
            to={jobLink(job.id)}
            aria-label={`Batch job ${job.id}`}
            className="hover:text-primary font-mono font-medium underline-offset-4 hover:underline"
          >
            #{job.id}
          </Link>
          {showWorkspace ? (
            <span className="text-muted-foreground max-w-40 truncate text-xs">{job.workspaceName}</span>
          ) : null}
        </div>
      ),
    },
    {
      id: 'state',
      header: 'State',
      cell: (job) => <StateChip state={job.state} title={job.reason || undefined} />,
    },
    { id: 'tasks', header: 'Tasks', cell: (job) => <TaskTally job={job} /> },
    {
      id: 'command',
      header: 'Command',
      cell: (job) => (
        <code
          className="text-muted-foreground block max-w-64 truncate font-mono text-xs"
          title={job.userCommand}
        >
          {job.userCommand}
        </code>
      ),
    },
    { id: 'creator', header: 'Creator', cell: (job) => job.creator ?? NONE },
    {
      id: 'created',
      header: 'Created',
      cell: (job) => (
        <time dateTime={job.created} title={formatDateTime(job.created)} className="text-muted-foreground">
          {timeAgo(job.created)}
        </time>
      ),
    },
    {
      id: 'duration',
      header: 'Duration',
      headerClassName: 'text-right',
      className: 'text-right tabular-nums text-muted-foreground',
      cell: (job) => {
        const seconds = elapsedSeconds(job.started, job.completed);
        return seconds === null ? '—' : formatDuration(seconds);
      },
    },
    {
      id: 'cluster',
      header: 'Cluster',
      cell: (job) =>
        job.clusterId === null ? (
          NONE
        ) : (
          <Link
            to={jobClusterLink(job.clusterId, workspaceSlug)}
            title={job.clusterState ?? undefined}
            className="hover:text-primary block max-w-48 truncate font-mono text-xs underline-offset-4 hover:underline"
          >
            {job.clusterName ?? `#${job.clusterId}`}
          </Link>
        ),
    },
  ];
  return <DataTable rows={jobs} columns={columns} getRowId={(job) => String(job.id)} {...table} />;
}
