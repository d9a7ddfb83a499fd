import { StateChip } from '@/components/state-chip';
import type { ClusterSummary } from '@/data/clusters/clusters-paginate-query';
import { timeAgo } from '@/features/clusters/format';
import { useFormatDateTime } from '@/lib/preferences';

// Cells every list of clusters shows the same way (the Dashboard, Notebooks, Staff).

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
