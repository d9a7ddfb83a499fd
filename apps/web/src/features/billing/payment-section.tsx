import { CreditCardIcon, ExternalLinkIcon, ReceiptTextIcon } from 'lucide-react';

import { EmptyState } from '@/components/empty-state';
import { ErrorState } from '@/components/error-state';
import { LoadingSkeleton } from '@/components/loading-skeleton';
import { PlainTable } from '@/components/plain-table';
import { StateChip } from '@/components/state-chip';
import { Skeleton } from '@/components/ui/skeleton';
import { TableCell, TableRow } from '@/components/ui/table';
import { useBillingContactQuery } from '@/data/subscriptions/billing-contact-query';
import { useInvoicePreviewQuery } from '@/data/subscriptions/invoice-preview-query';
import { type PaymentHistory, usePaymentHistoryQuery } from '@/data/subscriptions/payment-history-query';
import { usePaymentMethodQuery } from '@/data/subscriptions/payment-method-query';
import { BillingCard } from '@/features/billing/billing-card';
import { formatCents, formatDay } from '@/features/billing/format';
import { errorMessage } from '@/lib/api/errors';

const INVOICE_CHIP_STATES: Record<string, string> = {
  paid: 'ready',
  open: 'pending',
  void: 'stopped',
  uncollectible: 'error',
};

function PaymentMethodCard({ organizationId }: { organizationId: number }) {
  const method = usePaymentMethodQuery({ organizationId });
  const contact = useBillingContactQuery({ organizationId });
  const card = method.data?.paymentMethod;
  const who = contact.data?.contact;
  return (
    <BillingCard title="Payment method">
      {method.error ? (
        <p className="text-destructive text-sm">{errorMessage(method.error)}</p>
      ) : !method.data ? (
        <Skeleton className="h-10 w-full" aria-busy="true" />
      ) : card ? (
        <div className="flex items-center gap-3">
          <div className="bg-muted flex size-10 items-center justify-center rounded-lg border">
            <CreditCardIcon className="size-5" aria-hidden="true" />
          </div>
          <div className="text-sm">
            <p className="font-medium capitalize">
              {card.brand} •••• {card.last4}
            </p>
            <p className="text-muted-foreground">
              Expires {String(card.expMonth).padStart(2, '0')}/{card.expYear}
            </p>
          </div>
        </div>
      ) : (
        <p className="text-muted-foreground text-sm">No payment method on file. Upgrading adds one.</p>
      )}
      {who && (who.name || who.email) ? (
        <p className="text-muted-foreground text-sm break-words">
          Invoices go to {[who.name, who.email].filter(Boolean).join(', ')}.
        </p>
      ) : null}
    </BillingCard>
  );
}

function InvoicePreviewCard({ organizationId }: { organizationId: number }) {
  const preview = useInvoicePreviewQuery({ organizationId });
  const invoice = preview.data?.invoice;
  return (
    <BillingCard title="Next invoice">
      {preview.error ? (
        <p className="text-destructive text-sm">{errorMessage(preview.error)}</p>
      ) : !preview.data ? (
        <Skeleton className="h-10 w-full" aria-busy="true" />
      ) : invoice ? (
        <div className="grid gap-2 text-sm">
          <p>
            <span className="text-lg font-semibold tabular-nums">
              {formatCents(invoice.amountDueCents, invoice.currency)}
            </span>
            {invoice.nextPaymentAttempt ? (
              <span className="text-muted-foreground"> on {formatDay(invoice.nextPaymentAttempt)}</span>
            ) : null}
          </p>
          <ul className="text-muted-foreground grid gap-1">
            {invoice.lines.map((line, index) => (
              // Lines have no id; their order is Stripe's.
              // biome-ignore lint/suspicious/noArrayIndexKey: see above.
              <li key={index} className="flex justify-between gap-3">
                <span className="min-w-0 break-words">{line.description}</span>
                <span className="tabular-nums">{formatCents(line.amountCents, invoice.currency)}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <p className="text-muted-foreground text-sm">
          No upcoming invoice: the organization has no paid subscription.
        </p>
      )}
    </BillingCard>
  );
}

function InvoiceRow({ invoice }: { invoice: PaymentHistory['items'][number] }) {
  return (
    <TableRow>
      <TableCell className="px-4 font-medium">{invoice.number ?? invoice.id}</TableCell>
      <TableCell className="px-4">{invoice.created ? formatDay(invoice.created) : '—'}</TableCell>
      <TableCell className="px-4 tabular-nums">
        {formatCents(
          invoice.status === 'paid' ? invoice.amountPaidCents : invoice.amountDueCents,
          invoice.currency,
        )}
      </TableCell>
      <TableCell className="px-4">
        {invoice.status ? (
          <StateChip state={INVOICE_CHIP_STATES[invoice.status] ?? invoice.status} label={invoice.status} />
        ) : null}
      </TableCell>
      <TableCell className="px-4 text-right">
        {invoice.hostedInvoiceUrl ? (
          <a
            href={invoice.hostedInvoiceUrl}
            target="_blank"
            rel="noreferrer"
            className="text-primary inline-flex items-center gap-1 underline-offset-4 hover:underline"
          >
            View
            <ExternalLinkIcon className="size-3.5" aria-hidden="true" />
            <span className="sr-only">invoice {invoice.number ?? invoice.id}</span>
          </a>
        ) : null}
      </TableCell>
    </TableRow>
  );
}

function InvoicesTable({ organizationId }: { organizationId: number }) {
  const history = usePaymentHistoryQuery({ organizationId });
  return (
    <section aria-label="Invoices" className="flex min-w-0 flex-col gap-3">
      <h2 className="text-base font-semibold tracking-tight">Invoices</h2>
      {history.error ? (
        <ErrorState
          title="Could not load invoices"
          message={errorMessage(history.error)}
          onRetry={() => void history.refetch()}
          retrying={history.isFetching}
        />
      ) : !history.data ? (
        <LoadingSkeleton variant="table" columns={5} rows={2} />
      ) : history.data.items.length === 0 ? (
        <EmptyState
          icon={ReceiptTextIcon}
          title="No invoices yet"
          description="Invoices appear here once the organization pays by card."
          className="py-8"
        />
      ) : (
        <PlainTable headers={['Invoice', 'Date', 'Amount', 'Status', '']}>
          {history.data.items.map((invoice) => (
            <InvoiceRow key={invoice.id} invoice={invoice} />
          ))}
        </PlainTable>
      )}
    </section>
  );
}

/** What Stripe knows of the organization: card, next invoice, invoices. Organization admins only. */
export function PaymentSection({ organizationId }: { organizationId: number }) {
  return (
    <>
      <div className="grid gap-4 md:grid-cols-2">
        <PaymentMethodCard organizationId={organizationId} />
        <InvoicePreviewCard organizationId={organizationId} />
      </div>
      <InvoicesTable organizationId={organizationId} />
    </>
  );
}
