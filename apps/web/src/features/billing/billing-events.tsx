import { HistoryIcon } from 'lucide-react';
import * as React from 'react';

import { EmptyState } from '@/components/empty-state';
import { ErrorState } from '@/components/error-state';
import { LoadingSkeleton } from '@/components/loading-skeleton';
import { PlainTable } from '@/components/plain-table';
import { TablePagination } from '@/components/table-pagination';
import { Badge } from '@/components/ui/badge';
import { TableCell, TableRow } from '@/components/ui/table';
import { useBillingEventsQuery } from '@/data/pricing/billing-events-query';
import { errorMessage } from '@/lib/api/errors';
import { useFormatDateTime } from '@/lib/preferences';

const EVENTS_PAGE_SIZE = 10;

/** Plan and limit changes, payments and limits reached, newest first (organization admins). */
export function BillingEvents({ organizationId }: { organizationId: number }) {
  const [page, setPage] = React.useState(0);
  const events = useBillingEventsQuery({
    organizationId,
    query: { offset: page * EVENTS_PAGE_SIZE, limit: EVENTS_PAGE_SIZE },
  });
  const formatDateTime = useFormatDateTime();
  return (
    <section aria-label="Billing events" className="flex min-w-0 flex-col gap-3">
      <div className="space-y-1">
        <h2 className="text-base font-semibold tracking-tight">Billing events</h2>
        <p className="text-muted-foreground text-sm">Plan and limit changes, payments, and limits reached.</p>
      </div>
      {events.error ? (
        <ErrorState
          title="Could not load billing events"
          message={errorMessage(events.error)}
          onRetry={() => void events.refetch()}
          retrying={events.isFetching}
        />
      ) : !events.data ? (
        <LoadingSkeleton variant="table" columns={4} rows={3} />
      ) : events.data.count === 0 ? (
        <EmptyState
          icon={HistoryIcon}
          title="No billing events yet"
          description="Changes to the plan and its limits, payments and limits reached are listed here."
          className="py-8"
        />
      ) : (
        <>
          <PlainTable headers={['When', 'Kind', 'What happened', 'Workspace']}>
            {events.data.items.map((event) => (
              <TableRow key={event.id}>
                <TableCell className="px-4 whitespace-nowrap tabular-nums">
                  {formatDateTime(event.created)}
                </TableCell>
                <TableCell className="px-4">
                  <Badge variant="outline">{event.kind}</Badge>
                </TableCell>
                <TableCell className="min-w-64 px-4 whitespace-normal">
                  {event.detail}
                  {event.cluster ? <span className="text-muted-foreground"> ({event.cluster})</span> : null}
                </TableCell>
                <TableCell className="px-4">{event.account ?? '—'}</TableCell>
              </TableRow>
            ))}
          </PlainTable>
          <TablePagination
            page={page}
            pageSize={EVENTS_PAGE_SIZE}
            total={events.data.count}
            onPageChange={setPage}
            disabled={events.isPlaceholderData}
          />
        </>
      )}
    </section>
  );
}
