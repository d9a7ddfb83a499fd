import { SearchIcon, XIcon } from 'lucide-react';
import * as React from 'react';

import { FieldError } from '@/components/form-field';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { type Filter, parseFilterTerm, withFilter } from '@/features/software/search-params';

type SoftwareFiltersProps = {
  filters: Filter[];
  onChange: (filters: Filter[]) => void;
  problems?: string[];
};

const chipText = (filter: Filter) => `${filter.key}: ${filter.value}`;

/** The Software list's search bar: `status:built`, `package_sync:True`, `creator:ada` or part of a name. */
export function SoftwareFilters({ filters, onChange, problems = [] }: SoftwareFiltersProps) {
  const [term, setTerm] = React.useState('');
  const [problem, setProblem] = React.useState<string | null>(null);

  function submit(event: React.FormEvent) {
    event.preventDefault();
    const parsed = parseFilterTerm(term);
    if (!parsed) return;
    if ('problem' in parsed) {
      setProblem(parsed.problem);
      return;
    }
    setProblem(null);
    setTerm('');
    onChange(withFilter(filters, parsed));
  }

  const remove = (filter: Filter) => onChange(filters.filter((f) => f.key !== filter.key));

  return (
    <div className="flex flex-col gap-3">
      <form onSubmit={submit} className="relative">
        <SearchIcon
          className="text-muted-foreground pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2"
          aria-hidden="true"
        />
        <Input
          value={term}
          onChange={(event) => {
            setTerm(event.target.value);
            setProblem(null);
          }}
          aria-label="Filter software environments"
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? 'software-filter-problem' : undefined}
          placeholder="Filter by name, or status:built, package_sync:True, creator:ada — then Enter"
          className="pl-8"
        />
      </form>
      <FieldError id="software-filter-problem" messages={problem ? [problem, ...problems] : problems} />
      {filters.length > 0 ? (
        <ul aria-label="Active filters" className="flex flex-wrap items-center gap-2">
          {filters.map((filter) => (
            <li key={filter.key}>
              <span className="bg-muted inline-flex h-7 items-center gap-1 rounded-full border pr-1 pl-3 text-xs">
                <span className="font-mono">{chipText(filter)}</span>
                <Button
                  variant="ghost"
                  size="icon-sm"
                  className="size-5 rounded-full"
                  aria-label={`Remove filter ${chipText(filter)}`}
                  onClick={() => remove(filter)}
                >
                  <XIcon className="size-3" />
                </Button>
              </span>
            </li>
          ))}
          <li>
            <Button variant="link" size="sm" className="h-7 px-1 text-xs" onClick={() => onChange([])}>
              Clear filters
            </Button>
          </li>
        </ul>
      ) : null}
    </div>
  );
}
