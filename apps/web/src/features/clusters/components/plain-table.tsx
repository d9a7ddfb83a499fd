import type * as React from 'react';

import { Table, TableBody, TableHead, TableHeader, TableRow } from '@/components/ui/table';

/** A client-side table in the console's table frame: one header row of labels, then the rows. */
export function PlainTable({ headers, children }: { headers: React.ReactNode[]; children: React.ReactNode }) {
  return (
    <div className="bg-card overflow-hidden rounded-xl border">
      <Table>
        <TableHeader className="bg-muted/40">
          <TableRow className="hover:bg-transparent">
            {headers.map((header, index) => (
              // Headers are fixed per table: their position is their identity.
              // biome-ignore lint/suspicious/noArrayIndexKey: see above.
              <TableHead key={index} className="text-muted-foreground h-9 px-4 text-xs font-medium">
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
