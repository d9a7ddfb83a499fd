import type { ClusterDetails } from '@/data/clusters/cluster-details-query';
import { durationInWords } from '@/lib/format';
import { useFormatDateTime } from '@/lib/preferences';

type StopTimer = ClusterDetails['stopTimers'][number];

/** Soonest first: a fixed time, then the shortest wait. */
const bySoonest = (a: StopTimer, b: StopTimer) => Number(!a.at) - Number(!b.at) || a.seconds - b.seconds;

/** What will stop a running cluster by itself, whichever comes first (the server's `stop_timers`). */
export function StopTimers({ timers }: { timers: StopTimer[] }) {
  const formatDateTime = useFormatDateTime();
  if (timers.length === 0) return <span className="text-muted-foreground">Only when stopped</span>;
  const line = (t: StopTimer) => {
    if (t.timer === 'cluster_timeout' && t.at) return `At ${formatDateTime(t.at)} (cluster timeout)`;
    if (t.timer === 'idle_timeout') return `No work for ${durationInWords(t.seconds)} (idle timeout)`;
    return `No client for ${durationInWords(t.seconds)} (no-client timeout)`;
  };
  return (
    <ul aria-label="Stops" className="grid gap-0.5">
      {[...timers].sort(bySoonest).map((t) => (
        <li key={t.timer}>{line(t)}</li>
      ))}
    </ul>
  );
}
