import type * as React from 'react';

import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';
import { cn } from '@/lib/utils';

/**
 * A control that may be unavailable, with the reason in a tooltip (section 6's admin tooltips).
 * Disabled controls get no pointer events, so a wrapper carries the tooltip (and focus).
 */
export function WhyDisabled({
  reason,
  children,
  side,
  className = 'inline-flex w-fit',
}: {
  /** null: available, rendered as is. */
  reason: string | null;
  children: React.ReactElement;
  side?: 'top' | 'right' | 'bottom' | 'left';
  /** The wrapper's layout: inline by default; `flex w-full` inside menus. */
  className?: string;
}) {
  if (!reason) return children;
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: keyboard users reach the reason the control is disabled. */}
        <span tabIndex={0} className={cn('rounded-md', className)} data-disabled-reason={reason}>
          {children}
        </span>
      </TooltipTrigger>
      <TooltipContent side={side}>{reason}</TooltipContent>
    </Tooltip>
  );
}
