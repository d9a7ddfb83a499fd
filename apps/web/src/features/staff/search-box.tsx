import { SearchIcon } from 'lucide-react';
import * as React from 'react';
import { useSearchParams } from 'react-router';

import { Input } from '@/components/ui/input';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { DEFAULT_PAGE } from '@/lib/constants';
import { SCOPE_SEARCH_DEBOUNCE_MS } from '@/lib/scopes';
import { cn } from '@/lib/utils';

/**
 * A query-string parameter searched as the user types: the box answers at once, the URL (and
 * so the list) after the search debounce; a new search starts at the first page.
 */
export function useSearchText(name: string) {
  const [params, setParams] = useSearchParams();
  const inUrl = params.get(name) ?? '';
  const [text, setText] = React.useState(inUrl);
  const settled = useDebouncedValue(text.trim(), SCOPE_SEARCH_DEBOUNCE_MS);
  React.useEffect(() => {
    if (settled === inUrl) return;
    setParams(
      (current) => {
        if (settled) current.set(name, settled);
        else current.delete(name);
        current.set('page', String(DEFAULT_PAGE));
        return current;
      },
      { replace: true },
    );
  }, [settled, inUrl, name, setParams]);
  return { text, setText, search: inUrl };
}

type SearchBoxProps = {
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  /** A `<datalist>` id offering completions. */
  list?: string;
  className?: string;
};

export function SearchBox({ label, placeholder, value, onChange, list, className }: SearchBoxProps) {
  return (
    <div className={cn('relative w-full max-w-md', className)}>
      <SearchIcon
        className="text-muted-foreground pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2"
        aria-hidden="true"
      />
      <Input
        type="search"
        aria-label={label}
        placeholder={placeholder}
        value={value}
        list={list}
        onChange={(event) => onChange(event.target.value)}
        className="pl-8"
      />
    </div>
  );
}
