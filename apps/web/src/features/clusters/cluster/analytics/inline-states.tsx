import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api/errors';
import { cn } from '@/lib/utils';

/** Loading, inside a card: two bars the shape of what comes. */
export function InlineLoading({ className }: { className?: string }) {
  return (
    <div role="status" aria-busy="true" className="space-y-2">
      <span className="sr-only">Loading…</span>
      <Skeleton className={cn('h-4 w-64 max-w-full', className)} />
      <Skeleton className={cn('h-4 w-full', className)} />
    </div>
  );
}

/** A part of a card that could not load: what, and why. */
export function InlineError({ what, error }: { what: string; error: unknown }) {
  return (
    <p role="alert" className="text-destructive text-sm">
      Could not load {what}: {errorMessage(error)}
    </p>
  );
}
