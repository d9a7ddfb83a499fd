import type * as React from 'react';

import { StateChip } from '@/components/state-chip';
import { cn } from '@/lib/utils';

export type HeaderFact = { label: string; value: React.ReactNode };

type StateHeaderProps = {
  title: React.ReactNode;
  titleClassName?: string;
  state: string;
  reason?: string;
  /** Beside the state: links to what this belongs with. */
  badges?: React.ReactNode;
  /** On the right: Stop, Cancel. */
  actions?: React.ReactNode;
  facts: HeaderFact[];
};

/** A details page's header (a cluster's, a batch job's): its name and state, why, its actions and its facts. */
export function StateHeader({
  title,
  titleClassName,
  state,
  reason,
  badges,
  actions,
  facts,
}: StateHeaderProps) {
  return (
    <header className="flex flex-col gap-4">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0 space-y-2">
          <div className="flex flex-wrap items-center gap-3">
            <h1 className={cn('truncate text-2xl font-semibold tracking-tight', titleClassName)}>{title}</h1>
            <StateChip state={state} title={reason || undefined} />
            {badges}
          </div>
          {reason ? <p className="text-muted-foreground text-sm break-words">{reason}</p> : null}
        </div>
        {actions}
      </div>
      <dl className="text-muted-foreground flex flex-wrap gap-x-6 gap-y-1 text-sm">
        {facts.map((fact) => (
          <div key={fact.label} className="flex gap-1.5">
            <dt>{fact.label}</dt>
            <dd className="text-foreground tabular-nums">{fact.value}</dd>
          </div>
        ))}
      </dl>
    </header>
  );
}
