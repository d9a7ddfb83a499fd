import { CheckIcon } from 'lucide-react';
import { Link } from 'react-router';

import { DocumentTitle } from '@/components/document-title';
import { PlainTable } from '@/components/plain-table';
import { PublicHeader } from '@/components/public-header';
import { Button } from '@/components/ui/button';
import { TableCell, TableRow } from '@/components/ui/table';
import { PLAN_COMPARISON } from '@/features/billing/plans';
import { paths } from '@/lib/paths';

const HIGHLIGHTS = [
  'No cap on members, seats or workspaces',
  'Ten times the cores per member',
  'Credits beyond the allotment, paid as you go, within the limits you set',
  'Card payments, invoices and a billing portal',
];

/**
 * The Professional plan (`/go-cumulus-pro`, public): what it gives over Free, and the way to
 * Billing (through the billing-redirect screen, which signs a visitor in first).
 */
export function ProPlanPage() {
  return (
    <div className="relative isolate flex min-h-svh flex-col overflow-x-hidden">
      <DocumentTitle title="Cumulus Professional" />
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-x-0 top-0 -z-10 h-[28rem] bg-[radial-gradient(ellipse_at_top,oklch(0.72_0.13_234/12%),transparent_65%)]"
      />
      <PublicHeader />
      <main className="mx-auto flex w-full max-w-3xl flex-col gap-8 px-4 pt-[8vh] pb-16">
        <div className="space-y-3 text-center">
          <p className="text-primary text-sm font-medium">Cumulus Professional</p>
          <h1 className="text-3xl font-semibold tracking-tight text-balance">Room for the whole team</h1>
          <p className="text-muted-foreground mx-auto max-w-xl text-balance">
            Professional lifts the Free plan's team limits and lets an organization use credits beyond what
            its plan includes, paid by card, with credit and spend limits that stop clusters when reached.
          </p>
        </div>
        <ul className="mx-auto grid gap-2 text-sm sm:grid-cols-2">
          {HIGHLIGHTS.map((item) => (
            <li key={item} className="flex items-start gap-2">
              <CheckIcon className="text-primary mt-0.5 size-4 shrink-0" aria-hidden="true" />
              {item}
            </li>
          ))}
        </ul>
        <PlainTable headers={['Plan', 'Free', 'Professional']}>
          {PLAN_COMPARISON.map((row) => (
            <TableRow key={row.feature}>
              <TableCell className="text-muted-foreground px-4 whitespace-normal">{row.feature}</TableCell>
              <TableCell className="px-4 whitespace-normal">{row.free}</TableCell>
              <TableCell className="px-4 font-medium whitespace-normal">{row.professional}</TableCell>
            </TableRow>
          ))}
        </PlainTable>
        <div className="flex flex-col items-center gap-2">
          <Button asChild size="lg">
            <Link to={paths.billingRedirect}>Upgrade on the Billing page</Link>
          </Button>
          <p className="text-muted-foreground text-center text-xs">
            Organization admins upgrade there; you will be asked to sign in first.
          </p>
        </div>
      </main>
    </div>
  );
}
