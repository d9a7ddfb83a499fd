import { RefreshCwIcon, TriangleAlertIcon } from 'lucide-react';
import type * as React from 'react';

import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';

type ErrorStateProps = {
  title?: React.ReactNode;
  /** The user-readable message, e.g. "Can't connect to the server". */
  message: React.ReactNode;
  /** Shows a Retry button when given; typically a query's refetch. */
  onRetry?: () => void;
  retrying?: boolean;
  className?: string;
};

function ErrorState({
  title = 'Something went wrong',
  message,
  onRetry,
  retrying = false,
  className,
}: ErrorStateProps) {
  return (
    <div
      data-slot="error-state"
      role="alert"
      className={cn(
        'border-destructive/30 bg-destructive/5 flex flex-col items-center justify-center gap-3 rounded-xl border px-6 py-12 text-center',
        className,
      )}
    >
      <div className="bg-destructive/10 text-destructive flex size-10 items-center justify-center rounded-lg">
        <TriangleAlertIcon className="size-5" aria-hidden="true" />
      </div>
      <div className="max-w-md space-y-1">
        <h3 className="text-sm font-medium">{title}</h3>
        <p className="text-muted-foreground text-sm break-words">{message}</p>
      </div>
      {onRetry ? (
        <Button variant="outline" size="sm" onClick={onRetry} disabled={retrying} className="mt-1">
          <RefreshCwIcon className={cn(retrying && 'animate-spin')} aria-hidden="true" />
          Retry
        </Button>
      ) : null}
    </div>
  );
}

export { ErrorState };
