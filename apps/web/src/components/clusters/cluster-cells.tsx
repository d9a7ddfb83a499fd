import type * as React from 'react';
import { Link } from 'react-router';

import { StateChip } from '@/components/state-chip';
import type { ClusterSummary } from '@/data/clusters/clusters-paginate-query';
import { clusterLink } from '@/lib/clusters/links';
import { timeAgo } from '@/lib/format';
import { useFormatDateTime } from '@/lib/preferences';

// Cells every list of clusters shows the same way (the Dashboard, Notebooks, Staff).

type NameCellProps = {
  cluster: Pick<ClusterSummary, 'id' | 'name' | 'account'>;
  /** Name its workspace (lists of several workspaces). */
  showWorkspace?: boolean;
  /** More on the line under the name (tags). */
  children?: React.ReactNode;
};

/** Its name, linking to its page, over its id (and workspace). */
export function ClusterNameCell({ cluster, showWorkspace = true, children }: NameCellProps) {
  return (
    <div className="flex min-w-0 flex-col">
      <Link
        to={clusterLink(cluster)}
        className="hover:text-primary truncate font-medium underline-offset-4 hover:underline"
      >
        {cluster.name}
      </Link>
      <span className="text-muted-foreground flex flex-wrap items-center gap-x-2 gap-y-1 font-mono text-xs">
        <span>
          #{cluster.id}
          {showWorkspace ? ` · ${cluster.account.name}` : ''}
        </span>
        {children}
      </span>
    </div>
  );
}

/** Its state, with the reason on hover. */
export function ClusterStateCell({ cluster }: { cluster: Pick<ClusterSummary, 'currentState'> }) {
  return <StateChip state={cluster.currentState.state} title={cluster.currentState.reason || undefined} />;
}

/** Who created it; a dash when that user is gone. */
export function CreatorCell({ creator }: { creator: ClusterSummary['creator'] }) {
  return creator?.username ?? <span className="text-muted-foreground">—</span>;
}

/** "5 minutes ago", the exact time on hover. */
export function TimeAgoCell({ value }: { value: string }) {
  const formatDateTime = useFormatDateTime();
  return (
    <time dateTime={value} title={formatDateTime(value)} className="text-muted-foreground">
      {timeAgo(value)}
    </time>
  );
}
