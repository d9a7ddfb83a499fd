import { CircleAlertIcon } from 'lucide-react';
import type * as React from 'react';

import { Alert, AlertDescription } from '@/components/ui/alert';

/** A form-level error (the first non-field error, an unknown error) in red above the form. */
export function FormAlert({ children, className }: { children?: React.ReactNode; className?: string }) {
  if (!children) return null;
  return (
    <Alert variant="destructive" className={className}>
      <CircleAlertIcon aria-hidden="true" />
      <AlertDescription className="text-destructive/90">{children}</AlertDescription>
    </Alert>
  );
}
