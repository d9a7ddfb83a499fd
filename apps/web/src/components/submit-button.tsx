import { LoaderCircleIcon } from 'lucide-react';
import type * as React from 'react';

import { Button } from '@/components/ui/button';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';
import { cn } from '@/lib/utils';

type SubmitButtonProps = Omit<React.ComponentProps<typeof Button>, 'type'> & {
  /** The form's rules pass; until then the button is disabled and says why. */
  valid?: boolean;
  pending?: boolean;
};

export const SUBMIT_DISABLED_TOOLTIP = 'To submit, fill out all required fields';

/** A form's submit button: disabled with a tooltip until the form is valid, a spinner while pending. */
export function SubmitButton({
  valid = true,
  pending = false,
  className,
  children,
  ...props
}: SubmitButtonProps) {
  const button = (
    <Button type="submit" disabled={!valid || pending} className={cn('w-full', className)} {...props}>
      {pending ? <LoaderCircleIcon className="animate-spin" aria-hidden="true" /> : null}
      {children}
    </Button>
  );
  if (valid) return button;
  // A disabled button gets no pointer events, so the wrapper carries the tooltip (and focus).
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: keyboard users reach the tooltip explaining the disabled button. */}
        <span tabIndex={0} className={cn('block rounded-md', className?.includes('w-') ? '' : 'w-full')}>
          {button}
        </span>
      </TooltipTrigger>
      <TooltipContent>{SUBMIT_DISABLED_TOOLTIP}</TooltipContent>
    </Tooltip>
  );
}
