import { CircleAlertIcon } from 'lucide-react';
import type * as React from 'react';

import { Alert, AlertDescription } from '@/components/ui/alert';
import { cn } from '@/lib/utils';

/** A form-level error (the first non-field error, an unknown error) in red above the form. */
export function FormAlert({ children, className }: { children?: React.ReactNode; className?: string }) {
  if (!children) return null;
  return (
    // Full-strength red: the stock /90 falls just under 4.5:1 on the dark theme's cards.
    <Alert
      variant="destructive"
      className={cn('*:data-[slot=alert-description]:text-destructive', className)}
    >
      <CircleAlertIcon aria-hidden="true" />
      <AlertDescription>{children}</AlertDescription>
    </Alert>
  );
}
