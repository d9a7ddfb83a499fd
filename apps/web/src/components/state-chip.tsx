import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/utils';

export type StateTone = 'success' | 'progress' | 'neutral' | 'error' | 'warning';

// States as clients know them (cluster, process, instance, infra), build states, and
// batch jobs' and their tasks' states.
// Anything else is shown as a warning chip with its own name.
const TONE_BY_STATE: Record<string, Exclude<StateTone, 'warning'>> = {
  ready: 'success',
  started: 'success',
  built: 'success',
  created: 'success',
  done: 'success',
  pending: 'progress',
  queued: 'progress',
  starting: 'progress',
  scaling: 'progress',
  pausing: 'progress',
  stopping: 'progress',
  creating: 'progress',
  destroying: 'progress',
  running: 'progress',
  assigned: 'progress',
  stopped: 'neutral',
  paused: 'neutral',
  destroyed: 'neutral',
  cancelled: 'neutral',
  error: 'error',
  failed: 'error',
};

const TONE_CLASSES: Record<StateTone, { chip: string; dot: string }> = {
  success: { chip: 'border-success/25 bg-success/10 text-success', dot: 'bg-success' },
  progress: { chip: 'border-warning/25 bg-warning/10 text-warning', dot: 'bg-warning animate-pulse' },
  warning: { chip: 'border-warning/25 bg-warning/10 text-warning', dot: 'bg-warning' },
  neutral: { chip: 'border-border bg-muted text-muted-foreground', dot: 'bg-muted-foreground' },
  error: { chip: 'border-destructive/30 bg-destructive/10 text-destructive', dot: 'bg-destructive' },
};

export function stateTone(state: string): StateTone {
  return TONE_BY_STATE[state.toLowerCase()] ?? 'warning';
}

/** "ready_spot" -> "Ready spot". */
function humanize(state: string): string {
  const words = state.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

type StateChipProps = {
  state: string;
  /** Overrides the displayed text (e.g. "Downloading Environment"); the color still follows `state`. */
  label?: string;
  /** Shown as a tooltip, e.g. the state's reason. */
  title?: string;
  className?: string;
};

function StateChip({ state, label, title, className }: StateChipProps) {
  const tone = stateTone(state);
  const classes = TONE_CLASSES[tone];

  return (
    <Badge
      variant="outline"
      data-slot="state-chip"
      data-state={state}
      data-tone={tone}
      title={title}
      className={cn('gap-1.5 rounded-full px-2 font-medium', classes.chip, className)}
    >
      <span aria-hidden="true" className={cn('size-1.5 rounded-full', classes.dot)} />
      {label ?? humanize(state)}
    </Badge>
  );
}

export { StateChip };
