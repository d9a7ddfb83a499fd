import { cn } from '@/lib/utils';

type ProgressBarProps = {
  /** Says what is counted, e.g. "inc-3f2a: 40 of 100 tasks done". */
  label: string;
  done: number;
  total: number;
  /** Of `done`, how many erred (drawn red). */
  erred?: number;
  className?: string;
};

/** Done out of total as a bar, for assistive technology a progressbar with its numbers. */
export function ProgressBar({ label, done, total, erred = 0, className }: ProgressBarProps) {
  const max = Math.max(total, 1);
  const ok = Math.max(0, Math.min(done, total) - erred);
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={total}
      aria-valuenow={Math.min(done, total)}
      className={cn('bg-muted flex h-2 w-full overflow-hidden rounded-full', className)}
    >
      <div className="bg-primary h-full transition-[width]" style={{ width: `${(ok / max) * 100}%` }} />
      {erred > 0 && <div className="bg-destructive h-full" style={{ width: `${(erred / max) * 100}%` }} />}
    </div>
  );
}
