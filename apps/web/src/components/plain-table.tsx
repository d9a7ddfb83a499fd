import type * as React from 'react';

import { PINNED_ACTIONS_HEAD } from '@/components/pinned-column';
import { Table, TableBody, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { cn } from '@/lib/utils';

/**
 * A client-side table in the console's table frame: one header row of labels, then the rows.
 * `actionsLast`: the last column holds actions and stays in view on a phone (give its cells
 * PINNED_ACTIONS too).
 */
export function PlainTable({
  headers,
  children,
  actionsLast = false,
}: {
  headers: React.ReactNode[];
  children: React.ReactNode;
  actionsLast?: boolean;
}) {
  return (
    <div className="bg-card overflow-hidden rounded-xl border">
      <Table>
        <TableHeader className="bg-muted/40">
          <TableRow className="hover:bg-transparent">
            {headers.map((header, index) => (
              <TableHead
                // Headers are fixed per table: their position is their identity.
                // biome-ignore lint/suspicious/noArrayIndexKey: see above.
                key={index}
                className={cn(
                  'text-muted-foreground h-9 px-4 text-xs font-medium',
                  actionsLast && index === headers.length - 1 && PINNED_ACTIONS_HEAD,
                )}
              >
                {header}
              </TableHead>
            ))}
          </TableRow>
        </TableHeader>
        <TableBody>{children}</TableBody>
      </Table>
    </div>
  );
}
