import type { LucideIcon } from 'lucide-react';
import type * as React from 'react';

import { CodeBlock } from '@/components/code-block';

export type GuideStep = { text: string; code: string; label?: string; copyLabel: string };

type GuideEmptyStateProps = {
  icon: LucideIcon;
  title: React.ReactNode;
  description: React.ReactNode;
  action?: React.ReactNode;
  /** What to type, in order: each step's text, then its snippet to copy. */
  steps: GuideStep[];
  slot: string;
};

/** A list with nothing in it yet: what it will hold, and the steps that fill it from a terminal or Python. */
export function GuideEmptyState({
  icon: Icon,
  title,
  description,
  action,
  steps,
  slot,
}: GuideEmptyStateProps) {
  return (
    <div
      data-slot={slot}
      className="bg-card/40 grid gap-8 rounded-xl border border-dashed p-6 md:grid-cols-[minmax(0,18rem)_minmax(0,1fr)] md:p-8"
    >
      <div className="flex flex-col items-start gap-3">
        <div className="bg-primary/10 text-primary flex size-10 items-center justify-center rounded-lg border border-primary/20">
          <Icon className="size-5" aria-hidden="true" />
        </div>
        <h2 className="text-base font-semibold">{title}</h2>
        <p className="text-muted-foreground text-sm">{description}</p>
        {action}
      </div>
      <ol className="grid min-w-0 gap-4 text-sm">
        {steps.map((step, index) => (
          <li key={step.copyLabel} className="grid gap-2">
            <span className="text-muted-foreground">
              <span className="text-foreground font-medium">{index + 1}.</span> {step.text}
            </span>
            <CodeBlock code={step.code} label={step.label} copyLabel={step.copyLabel} />
          </li>
        ))}
      </ol>
    </div>
  );
}
