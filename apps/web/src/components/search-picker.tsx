import { CheckIcon, ChevronsUpDownIcon, LoaderCircleIcon, SearchIcon } from 'lucide-react';
import * as React from 'react';

import { Button } from '@/components/ui/button';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import { cn } from '@/lib/utils';

export type PickerOption = {
  /** Unique across all groups. */
  key: string;
  label: string;
  /** A second, muted line (an email, the workspaces a scope covers...). */
  description?: string;
  icon?: React.ReactNode;
};

export type PickerGroup = { heading?: string; options: PickerOption[] };

type SearchPickerProps = {
  /** What the closed picker shows: the selection, or the placeholder when null. */
  selected: { label: string; icon?: React.ReactNode } | null;
  selectedKey?: string | null;
  /** Shown on the closed picker without a selection, and in the search box. */
  placeholder: string;
  /** The accessible name of the picker button ("Organization", "Scope"). */
  label: string;
  groups: PickerGroup[];
  /** The search text is the caller's: it filters locally or asks the server (debounced). */
  search: string;
  onSearchChange: (text: string) => void;
  onSelect: (key: string) => void;
  loading?: boolean;
  emptyText?: string;
  className?: string;
};

/**
 * A button that opens a search box over a grouped list (a combobox): type to search, arrows to
 * move, Enter to pick, Escape to close. The options come from the caller, so the same picker
 * serves local filtering and server-side search.
 */
export function SearchPicker({
  selected,
  selectedKey,
  placeholder,
  label,
  groups,
  search,
  onSearchChange,
  onSelect,
  loading = false,
  emptyText = 'No results',
  className,
}: SearchPickerProps) {
  const [open, setOpen] = React.useState(false);
  const [active, setActive] = React.useState(0);
  const listId = React.useId();
  const options = React.useMemo(() => groups.flatMap((group) => group.options), [groups]);
  const listRef = React.useRef<HTMLDivElement>(null);

  // A new list starts at its first option.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset whenever the options change.
  React.useEffect(() => setActive(0), [options]);
  React.useEffect(() => {
    const option = listRef.current?.querySelector<HTMLElement>(`[data-index="${active}"]`);
    option?.scrollIntoView?.({ block: 'nearest' });
  }, [active]);

  const pick = (key: string) => {
    onSelect(key);
    setOpen(false);
    onSearchChange('');
  };

  const onKeyDown = (event: React.KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setActive((index) => Math.min(index + 1, options.length - 1));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((index) => Math.max(index - 1, 0));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const option = options[active];
      if (option) pick(option.key);
    }
  };

  let index = 0;
  return (
    <Popover
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) onSearchChange('');
      }}
    >
      <PopoverTrigger asChild>
        <Button
          variant="outline"
          role="combobox"
          aria-expanded={open}
          aria-label={selected ? `${label}: ${selected.label}` : label}
          className={cn('w-64 min-w-0 shrink justify-between font-normal', className)}
        >
          <span className="flex min-w-0 items-center gap-2">
            {selected?.icon}
            <span className={cn('truncate', !selected && 'text-muted-foreground')}>
              {selected?.label ?? placeholder}
            </span>
          </span>
          <ChevronsUpDownIcon className="text-muted-foreground" aria-hidden="true" />
        </Button>
      </PopoverTrigger>
      <PopoverContent align="start" className="w-(--radix-popover-trigger-width) min-w-72 p-0">
        <div className="flex items-center gap-2 border-b px-3">
          <SearchIcon className="text-muted-foreground size-4 shrink-0" aria-hidden="true" />
          <input
            // biome-ignore lint/a11y/noAutofocus: the search box is what the open picker is for.
            autoFocus
            role="combobox"
            aria-expanded="true"
            aria-controls={listId}
            aria-activedescendant={options[active] ? `${listId}-${active}` : undefined}
            aria-label={placeholder}
            placeholder={placeholder}
            value={search}
            onChange={(event) => onSearchChange(event.target.value)}
            onKeyDown={onKeyDown}
            className="placeholder:text-muted-foreground h-10 w-full bg-transparent text-sm outline-none"
          />
          {loading ? (
            <LoaderCircleIcon
              className="text-muted-foreground size-4 shrink-0 animate-spin"
              aria-hidden="true"
            />
          ) : null}
        </div>
        <div
          ref={listRef}
          id={listId}
          role="listbox"
          aria-label={label}
          className="max-h-80 overflow-y-auto p-1"
        >
          {options.length === 0 ? (
            <p className="text-muted-foreground px-3 py-6 text-center text-sm">
              {loading ? 'Searching…' : emptyText}
            </p>
          ) : (
            groups
              .filter((group) => group.options.length > 0)
              .map((group) => (
                // biome-ignore lint/a11y/useSemanticElements: a listbox groups its options with role=group (WAI-ARIA).
                <div key={group.heading ?? 'options'} role="group" aria-label={group.heading}>
                  {group.heading ? (
                    <p className="text-muted-foreground px-2 pt-2 pb-1 text-xs font-medium">
                      {group.heading}
                    </p>
                  ) : null}
                  {group.options.map((option) => {
                    const position = index++;
                    return (
                      <div
                        key={option.key}
                        id={`${listId}-${position}`}
                        data-index={position}
                        role="option"
                        tabIndex={-1}
                        aria-selected={position === active}
                        data-active={position === active || undefined}
                        onMouseMove={() => setActive(position)}
                        onClick={() => pick(option.key)}
                        onKeyDown={() => undefined}
                        className="data-[active]:bg-accent data-[active]:text-accent-foreground flex cursor-pointer items-center gap-2 rounded-sm px-2 py-1.5 text-sm"
                      >
                        {option.icon}
                        <span className="grid min-w-0 flex-1 leading-tight">
                          <span className="truncate">{option.label}</span>
                          {option.description ? (
                            <span className="text-muted-foreground truncate text-xs">
                              {option.description}
                            </span>
                          ) : null}
                        </span>
                        {option.key === selectedKey ? (
                          <CheckIcon className="text-primary size-4 shrink-0" aria-label="Selected" />
                        ) : null}
                      </div>
                    );
                  })}
                </div>
              ))
          )}
        </div>
      </PopoverContent>
    </Popover>
  );
}
