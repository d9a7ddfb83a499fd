import { LoadingSkeleton } from '@/components/loading-skeleton';
import { Page } from '@/components/page';
import { Skeleton } from '@/components/ui/skeleton';

const ENTRIES = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];

/** What the shell shows until the user, memberships and interactions have loaded. */
export function ShellSkeleton() {
  return (
    <div className="flex min-h-svh" role="status" aria-busy="true" aria-label="Loading the console">
      <div className="bg-sidebar hidden w-52 shrink-0 flex-col gap-3 border-r p-3 md:flex">
        <Skeleton className="h-8 w-32" />
        <Skeleton className="h-10 w-full" />
        <div className="mt-3 flex flex-col gap-2">
          {ENTRIES.map((key) => (
            <Skeleton key={key} className="h-7 w-full" />
          ))}
        </div>
        <Skeleton className="mt-auto h-10 w-full" />
      </div>
      <div className="flex flex-1 flex-col">
        <div className="flex h-14 items-center gap-3 border-b px-4">
          <Skeleton className="size-7" />
          <Skeleton className="h-4 w-40" />
        </div>
        <Page>
          <LoadingSkeleton variant="page" />
        </Page>
      </div>
    </div>
  );
}
