import type { TaskGroup } from '@/data/analytics/computation-query';
import { ProgressBar } from '@/features/clusters/cluster/analytics/progress-bar';

/** "1 task", "3 groups". */
export const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** "0.42 s", "3m 05s": seconds of work, precise when short. */
export function formatSeconds(seconds: number | null): string {
  if (seconds === null) return '—';
  if (seconds < 60) return `${seconds < 10 ? seconds.toFixed(2) : seconds.toFixed(1)} s`;
  const s = Math.round(seconds);
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  return hours ? `${hours}h ${String(minutes).padStart(2, '0')}m` : `${minutes}m ${rest}s`;
}

/** Task groups with done/total as bars, how long each took and the seconds its tasks computed. */
export function TaskGroupList({ groups, label }: { groups: TaskGroup[]; label: string }) {
  return (
    <div className="overflow-hidden rounded-lg border">
      <div
        aria-hidden="true"
        className="bg-muted/40 text-muted-foreground hidden grid-cols-[minmax(0,1fr)_14rem_6rem_7rem] gap-4 border-b px-3 py-2 text-xs font-medium sm:grid"
      >
        <span>Task group</span>
        <span>Done / total</span>
        <span className="text-right">Duration</span>
        <span className="text-right">Compute time</span>
      </div>
      <ul aria-label={label} className="divide-y">
        {groups.map((group) => (
          <li
            key={group.name}
            className="grid gap-x-4 gap-y-1.5 px-3 py-2.5 text-sm sm:grid-cols-[minmax(0,1fr)_14rem_6rem_7rem] sm:items-center"
          >
            <span className="min-w-0 truncate font-mono text-xs" title={group.name}>
              {group.name}
            </span>
            <span className="flex items-center gap-2">
              <ProgressBar
                label={`${group.name}: ${group.nDone} of ${group.nTasks} tasks done`}
                done={group.nDone}
                total={group.nTasks}
                erred={group.nErred}
              />
              <span className="text-muted-foreground shrink-0 text-xs tabular-nums">
                {group.nDone} / {group.nTasks}
                {group.nErred > 0 && <span className="text-destructive"> ({group.nErred} erred)</span>}
              </span>
            </span>
            {/* On a phone both numbers share a line under the bar; from sm up, a column each. */}
            <span className="text-muted-foreground flex gap-4 text-xs tabular-nums sm:contents">
              <span className="sm:text-right">
                <span className="sm:sr-only">Duration </span>
                {group.duration === null ? (group.start ? 'running' : '—') : formatSeconds(group.duration)}
              </span>
              <span className="sm:text-right">
                <span className="sm:sr-only">Compute time </span>
                {formatSeconds(group.computeSeconds)}
              </span>
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
