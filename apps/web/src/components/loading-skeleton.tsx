import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/utils';

type LoadingSkeletonProps = {
  /** table: a header and rows; cards: a grid of cards; page: a title, then a table. */
  variant?: 'table' | 'cards' | 'page';
  rows?: number;
  columns?: number;
  className?: string;
};

// Keys for placeholder rows: they never reorder, so positional keys are honest here.
const keys = (count: number, prefix: string) => Array.from({ length: count }, (_, i) => `${prefix}-${i}`);

function TableSkeleton({ rows, columns }: { rows: number; columns: number }) {
  return (
    <div className="overflow-hidden rounded-xl border">
      <div className="bg-muted/40 flex gap-4 border-b px-4 py-3">
        {keys(columns, 'head').map((key) => (
          <Skeleton key={key} className="h-3.5 flex-1" />
        ))}
      </div>
      {keys(rows, 'row').map((rowKey) => (
        <div key={rowKey} className="flex gap-4 border-b px-4 py-3.5 last:border-b-0">
          {keys(columns, rowKey).map((key, index) => (
            <Skeleton key={key} className={cn('h-4 flex-1', index === 0 && 'max-w-48')} />
          ))}
        </div>
      ))}
    </div>
  );
}

function CardsSkeleton({ count }: { count: number }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {keys(count, 'card').map((key) => (
        <div key={key} className="bg-card space-y-3 rounded-xl border p-6">
          <Skeleton className="h-4 w-1/2" />
          <Skeleton className="h-8 w-2/3" />
          <Skeleton className="h-3 w-full" />
        </div>
      ))}
    </div>
  );
}

function LoadingSkeleton({ variant = 'table', rows = 5, columns = 4, className }: LoadingSkeletonProps) {
  return (
    <div
      data-slot="loading-skeleton"
      role="status"
      aria-busy="true"
      className={cn('flex flex-col gap-6', className)}
    >
      <span className="sr-only">Loading…</span>
      {variant === 'page' ? (
        <div className="space-y-2">
          <Skeleton className="h-7 w-56" />
          <Skeleton className="h-4 w-80 max-w-full" />
        </div>
      ) : null}
      {variant === 'cards' ? <CardsSkeleton count={rows} /> : <TableSkeleton rows={rows} columns={columns} />}
    </div>
  );
}

export { LoadingSkeleton };
