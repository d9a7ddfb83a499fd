import { CircleCheckIcon, CirclePlayIcon, CircleXIcon } from 'lucide-react';

import type { JobSummary } from '@/data/jobs/jobs-query';
import { cn } from '@/lib/utils';

type Counts = Pick<JobSummary, 'nTasks' | 'nTasksSucceeded' | 'nTasksFailed' | 'nTasksRunning'>;

/** "✓ 3 ✗ 1 ▶ 0 of 4": a job's tasks at a glance, each count in its state's colour when not zero. */
export function TaskTally({ job, className }: { job: Counts; className?: string }) {
  const counts = [
    { label: 'succeeded', n: job.nTasksSucceeded, Icon: CircleCheckIcon, tone: 'text-success' },
    { label: 'failed', n: job.nTasksFailed, Icon: CircleXIcon, tone: 'text-destructive' },
    { label: 'running', n: job.nTasksRunning, Icon: CirclePlayIcon, tone: 'text-warning' },
  ];
  const said = `${counts.map(({ n, label }) => `${n} ${label}`).join(', ')} of ${job.nTasks}`;
  return (
    <span
      data-slot="task-tally"
      title={said}
      className={cn('inline-flex items-center gap-2.5 tabular-nums', className)}
    >
      {counts.map(({ label, n, Icon, tone }) => (
        <span
          key={label}
          className={cn('inline-flex items-center gap-1', n ? tone : 'text-muted-foreground/70')}
        >
          <Icon className="size-3.5" aria-hidden="true" />
          {n}
          <span className="sr-only"> {label}</span>
        </span>
      ))}
      <span className="text-muted-foreground">of {job.nTasks}</span>
    </span>
  );
}
