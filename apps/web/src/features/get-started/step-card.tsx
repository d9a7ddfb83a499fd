import { CheckIcon } from 'lucide-react';
import type * as React from 'react';

import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/utils';

type StepCardProps = {
  number: number;
  title: string;
  done: boolean;
  optional?: boolean;
  /** What the step is for, in a sentence. */
  description: React.ReactNode;
  children?: React.ReactNode;
};

/** One step of the checklist: its number (a check once done), what to do, and how. */
export function StepCard({ number, title, done, optional = false, description, children }: StepCardProps) {
  return (
    <li
      data-slot="get-started-step"
      data-done={done || undefined}
      aria-label={`${title}${done ? ' (done)' : ''}`}
      className={cn(
        'bg-card grid min-w-0 grid-cols-[2rem_minmax(0,1fr)] gap-x-4 gap-y-3 rounded-xl border p-4 sm:p-6',
        done && 'border-success/30',
      )}
    >
      <span
        aria-hidden="true"
        className={cn(
          'flex size-8 items-center justify-center rounded-full border text-sm font-semibold tabular-nums',
          done ? 'bg-success/15 border-success/40 text-success' : 'bg-muted text-muted-foreground',
        )}
      >
        {done ? <CheckIcon className="size-4" /> : number}
      </span>
      <div className="min-w-0 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <h2 className="text-base font-semibold">{title}</h2>
          {done ? (
            <Badge variant="outline" className="border-success/40 text-success">
              Done
            </Badge>
          ) : optional ? (
            <Badge variant="outline" className="text-muted-foreground">
              Optional
            </Badge>
          ) : null}
        </div>
        <p className="text-muted-foreground text-sm">{description}</p>
      </div>
      {children ? (
        <div className="col-span-2 grid min-w-0 gap-3 sm:col-start-2 sm:col-span-1">{children}</div>
      ) : null}
    </li>
  );
}
