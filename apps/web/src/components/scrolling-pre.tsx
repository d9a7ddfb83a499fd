import type * as React from 'react';

import { useScrollRegion } from '@/hooks/use-scroll-region';
import { cn } from '@/lib/utils';

/**
 * Preformatted text in a box of its own that scrolls when the text does not fit: a region named
 * `label` the keyboard can reach while it scrolls (hooks/use-scroll-region).
 */
export function ScrollingPre({
  label,
  className,
  ...props
}: React.ComponentProps<'pre'> & { label: string }) {
  const scrollRegion = useScrollRegion<HTMLPreElement>(label);
  return (
    <pre
      ref={scrollRegion}
      className={cn('focus-visible:ring-ring/50 outline-none focus-visible:ring-[3px]', className)}
      {...props}
    />
  );
}
