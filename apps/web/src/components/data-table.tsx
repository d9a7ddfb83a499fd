import type * as React from 'react';

import { PINNED_ACTIONS, PINNED_ACTIONS_HEAD } from '@/components/pinned-column';
import { TablePagination, type TablePaginationProps } from '@/components/table-pagination';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { cn } from '@/lib/utils';

export type DataTableColumn<Row> = {
  id: string;
  header: React.ReactNode;
  cell: (row: Row) => React.ReactNode;
  className?: string;
  headerClassName?: string;
};

type DataTableProps<Row> = Omit<TablePaginationProps, 'disabled' | 'className'> & {
  rows: readonly Row[];
  columns: readonly DataTableColumn<Row>[];
  getRowId: (row: Row) => string;
  /** First load shows skeleton rows; a refetch with rows on screen dims them instead. */
  loading?: boolean;
  /** Shown in the table body when there are no rows and nothing is loading. */
  empty?: React.ReactNode;
  className?: string;
};

const SKELETON_ROWS = ['a', 'b', 'c', 'd', 'e'];

/**
 * A table for server-paginated lists: the server pages, this renders one page and the controls.
 * A column with id `actions` stays in view on a phone.
 */
function DataTable<Row>({
  rows,
  columns,
  getRowId,
  loading = false,
  empty = 'No results.',
  className,
  ...pagination
}: DataTableProps<Row>) {
  const firstLoad = loading && rows.length === 0;

  return (
    <div data-slot="data-table" className={cn('flex flex-col gap-3', className)}>
      <div className="bg-card overflow-hidden rounded-xl border">
        <Table aria-busy={loading || undefined}>
          <TableHeader className="bg-muted/40">
            <TableRow className="hover:bg-transparent">
              {columns.map((column) => (
                <TableHead
                  key={column.id}
                  className={cn(
                    'text-muted-foreground h-9 px-4 text-xs font-medium',
                    column.id === 'actions' && PINNED_ACTIONS_HEAD,
                    column.headerClassName,
                  )}
                >
                  {column.header}
                </TableHead>
              ))}
            </TableRow>
          </TableHeader>
          <TableBody className={cn(loading && !firstLoad && 'opacity-60 transition-opacity')}>
            {firstLoad
              ? SKELETON_ROWS.map((key) => (
                  <TableRow key={key} className="hover:bg-transparent">
                    {columns.map((column) => (
                      <TableCell key={column.id} className="px-4 py-3">
                        <Skeleton className="h-4 w-full max-w-40" />
                      </TableCell>
                    ))}
                  </TableRow>
                ))
              : null}
            {!loading && rows.length === 0 ? (
              <TableRow className="hover:bg-transparent">
                <TableCell
                  colSpan={columns.length}
                  className="text-muted-foreground h-32 px-4 text-center whitespace-normal"
                >
                  {empty}
                </TableCell>
              </TableRow>
            ) : null}
            {rows.map((row) => (
              <TableRow key={getRowId(row)}>
                {columns.map((column) => (
                  <TableCell
                    key={column.id}
                    className={cn('px-4 py-2.5', column.id === 'actions' && PINNED_ACTIONS, column.className)}
                  >
                    {column.cell(row)}
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
      {pagination.total > 0 ? <TablePagination {...pagination} disabled={firstLoad} /> : null}
    </div>
  );
}

export { DataTable };
