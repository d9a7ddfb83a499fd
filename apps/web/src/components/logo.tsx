import * as React from 'react';

import { cn } from '@/lib/utils';

/** The cloud mark alone: a sky-blue tile with a white cloud (the favicon draws the same). */
function LogoMark({ className, ...props }: React.ComponentProps<'svg'>) {
  const gradientId = React.useId();

  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" className={cn('size-6 shrink-0', className)} {...props}>
      <defs>
        <linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#38bdf8" />
          <stop offset="1" stopColor="#2563eb" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="8" fill={`url(#${gradientId})`} />
      <path transform="translate(4 4)" d="M17.5 19H9a7 7 0 1 1 6.71-9h1.79a4.5 4.5 0 1 1 0 9Z" fill="white" />
    </svg>
  );
}

type LogoProps = {
  /** Hide the "Cumulus" word, e.g. in the collapsed sidebar. */
  markOnly?: boolean;
  className?: string;
};

function Logo({ markOnly = false, className }: LogoProps) {
  return (
    <span data-slot="logo" className={cn('inline-flex items-center gap-2', className)}>
      <LogoMark />
      {markOnly ? (
        <span className="sr-only">Cumulus</span>
      ) : (
        <span className="text-foreground text-[15px] font-semibold tracking-tight">Cumulus</span>
      )}
    </span>
  );
}

export { Logo, LogoMark };
