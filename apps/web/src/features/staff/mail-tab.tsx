import { ChevronRightIcon, MailIcon } from 'lucide-react';
import { TimeAgoCell } from '@/components/clusters/cluster-cells';
import { EmptyState } from '@/components/empty-state';
import { ErrorState } from '@/components/error-state';
import { LoadingSkeleton } from '@/components/loading-skeleton';
import { ScrollingPre } from '@/components/scrolling-pre';
import { TablePagination } from '@/components/table-pagination';
import { Badge } from '@/components/ui/badge';
import { type OutboxEmail, useEmailsQuery } from '@/data/staff/emails-query';
import { usePaginationParams } from '@/hooks/use-pagination-params';
import { errorMessage } from '@/lib/api/errors';
import { cn } from '@/lib/utils';

const STATUS_TONE: Record<string, string> = {
  sent: 'border-success/40 text-success',
  failed: 'border-destructive/40 text-destructive',
};

/** One email: who, what and how it went; its text opens below. */
function Email({ email }: { email: OutboxEmail }) {
  return (
    <li className="bg-card min-w-0 rounded-xl border">
      <details className="group">
        <summary className="flex cursor-pointer list-none flex-wrap items-center gap-x-4 gap-y-1 px-4 py-3">
          <ChevronRightIcon
            className="text-muted-foreground size-4 shrink-0 transition-transform group-open:rotate-90"
            aria-hidden="true"
          />
          <span className="min-w-0 flex-1">
            <span className="block truncate font-medium">{email.subject}</span>
            <span className="text-muted-foreground block truncate text-xs">To {email.to}</span>
          </span>
          <Badge variant="outline" className={cn('text-muted-foreground', STATUS_TONE[email.status])}>
            {email.status}
          </Badge>
          <span className="text-xs">
            <TimeAgoCell value={email.created} />
          </span>
        </summary>
        <div className="grid gap-2 border-t px-4 py-3">
          {email.lastError ? (
            <p className="text-destructive text-sm break-words">
              {email.attempts} attempt{email.attempts === 1 ? '' : 's'}: {email.lastError}
            </p>
          ) : null}
          <ScrollingPre
            label={`Text of ${email.subject}`}
            className="bg-background/60 max-h-96 overflow-auto rounded-lg border p-3 font-mono text-xs whitespace-pre-wrap break-words"
          >
            {email.text}
          </ScrollingPre>
        </div>
      </details>
    </li>
  );
}

/** The mail outbox: what the server sent or kept (no SMTP), newest first; open one to read it. */
export function MailTab() {
  const { page, pageSize, setPage, setPageSize } = usePaginationParams();
  const emails = useEmailsQuery({ offset: page * pageSize, limit: pageSize });

  if (emails.isError)
    return (
      <ErrorState
        title="Could not load the outbox"
        message={errorMessage(emails.error)}
        onRetry={() => void emails.refetch()}
      />
    );
  if (emails.isPending) return <LoadingSkeleton variant="table" columns={3} />;
  if (emails.data.count === 0)
    return (
      <EmptyState
        icon={MailIcon}
        title="No email yet"
        description="Every email the server sends is kept here."
      />
    );
  return (
    <div className="flex flex-col gap-3">
      <ul aria-label="Outbox" className="grid gap-2">
        {emails.data.items.map((email) => (
          <Email key={email.id} email={email} />
        ))}
      </ul>
      <TablePagination
        total={emails.data.count}
        page={page}
        pageSize={pageSize}
        onPageChange={setPage}
        onPageSizeChange={setPageSize}
      />
    </div>
  );
}
