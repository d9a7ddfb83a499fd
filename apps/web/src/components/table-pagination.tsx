import { ChevronLeftIcon, ChevronRightIcon } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { PAGE_SIZE_OPTIONS } from '@/lib/constants';
import { cn } from '@/lib/utils';

export type TablePaginationProps = {
  /** Zero-based, as in the URL's `page` parameter. */
  page: number;
  pageSize: number;
  total: number;
  onPageChange: (page: number) => void;
  /** Shows a rows-per-page picker when given. */
  onPageSizeChange?: (pageSize: number) => void;
  pageSizeOptions?: readonly number[];
  disabled?: boolean;
  className?: string;
};

const numberFormat = new Intl.NumberFormat('en-US');

function TablePagination({
  page,
  pageSize,
  total,
  onPageChange,
  onPageSizeChange,
  pageSizeOptions = PAGE_SIZE_OPTIONS,
  disabled = false,
  className,
}: TablePaginationProps) {
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const first = total === 0 ? 0 : page * pageSize + 1;
  const last = Math.min(total, (page + 1) * pageSize);
  const hasPrevious = page > 0;
  const hasNext = (page + 1) * pageSize < total;
  const sizes = pageSizeOptions.includes(pageSize)
    ? pageSizeOptions
    : [...pageSizeOptions, pageSize].sort((a, b) => a - b);

  return (
    <nav
      aria-label="Pagination"
      data-slot="table-pagination"
      className={cn(
        'text-muted-foreground flex flex-wrap items-center justify-between gap-3 text-sm',
        className,
      )}
    >
      <p aria-live="polite" className="tabular-nums">
        {total === 0
          ? 'No results'
          : `${numberFormat.format(first)}–${numberFormat.format(last)} of ${numberFormat.format(total)}`}
      </p>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        {onPageSizeChange ? (
          <div className="flex shrink-0 items-center gap-2">
            <span className="hidden whitespace-nowrap sm:inline">Rows per page</span>
            <Select
              value={String(pageSize)}
              onValueChange={(value) => onPageSizeChange(Number(value))}
              disabled={disabled}
            >
              <SelectTrigger size="sm" aria-label="Rows per page" className="min-w-[4.5rem] tabular-nums">
                <SelectValue />
              </SelectTrigger>
              <SelectContent align="end">
                {sizes.map((size) => (
                  <SelectItem key={size} value={String(size)}>
                    {size}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
        ) : null}
        <span className="whitespace-nowrap tabular-nums">
          Page {numberFormat.format(page + 1)} of {numberFormat.format(pageCount)}
        </span>
        <div className="flex items-center gap-2">
          <Button
            variant="outline"
            size="sm"
            onClick={() => onPageChange(page - 1)}
            disabled={disabled || !hasPrevious}
          >
            <ChevronLeftIcon aria-hidden="true" />
            Previous
          </Button>
          <Button
            variant="outline"
            size="sm"
            onClick={() => onPageChange(page + 1)}
            disabled={disabled || !hasNext}
          >
            Next
            <ChevronRightIcon aria-hidden="true" />
          </Button>
        </div>
      </div>
    </nav>
  );
}

export { TablePagination };
