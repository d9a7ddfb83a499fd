import { XIcon } from 'lucide-react';

import { Button } from '@/components/ui/button';

type FilterChipsProps<F> = {
  filters: readonly F[];
  /** What a chip says, and what its remove button is named after: "state: ready". */
  label: (filter: F) => string;
  onRemove: (filter: F) => void;
  onClear: () => void;
};

/** A search bar's active filters as removable chips, and Clear filters; nothing when there are none. */
export function FilterChips<F>({ filters, label, onRemove, onClear }: FilterChipsProps<F>) {
  if (filters.length === 0) return null;
  return (
    <ul aria-label="Active filters" className="flex flex-wrap items-center gap-2">
      {filters.map((filter) => (
        <li key={label(filter)} className="max-w-full">
          <span className="bg-muted inline-flex h-7 max-w-full items-center gap-1 rounded-full border pr-1 pl-3 text-xs">
            <span className="truncate font-mono">{label(filter)}</span>
            <Button
              variant="ghost"
              size="icon-sm"
              className="size-5 rounded-full"
              aria-label={`Remove filter ${label(filter)}`}
              onClick={() => onRemove(filter)}
            >
              <XIcon className="size-3" />
            </Button>
          </span>
        </li>
      ))}
      <li>
        <Button variant="link" size="sm" className="h-7 px-1 text-xs" onClick={onClear}>
          Clear filters
        </Button>
      </li>
    </ul>
  );
}
