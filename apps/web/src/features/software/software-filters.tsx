import { SearchIcon } from 'lucide-react';
import { FilterChips } from '@/components/filter-chips';
import { FieldError } from '@/components/form-field';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { type Filter, parseFilterTerm, withFilter } from '@/features/software/search-params';
import { useFilterTerm } from '@/hooks/use-filter-term';

type SoftwareFiltersProps = {
  filters: Filter[];
  onChange: (filters: Filter[]) => void;
  problems?: string[];
};

const chipText = (filter: Filter) => `${filter.key}: ${filter.value}`;

/** The Software list's search bar: `status:built`, `package_sync:True`, `creator:ada` or part of a name. */
export function SoftwareFilters({ filters, onChange, problems = [] }: SoftwareFiltersProps) {
  const { term, setTerm, problem, submit } = useFilterTerm(parseFilterTerm, (filter) =>
    onChange(withFilter(filters, filter)),
  );

  const remove = (filter: Filter) => onChange(filters.filter((f) => f.key !== filter.key));
  // The default filter (package_sync False) says what it hides, and undoes in one click.
  const hidesPackageSync = filters.some((f) => f.key === 'package_sync' && f.value === 'False');

  return (
    <div className="flex flex-col gap-3">
      <form onSubmit={submit} className="relative">
        <SearchIcon
          className="text-muted-foreground pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2"
          aria-hidden="true"
        />
        <Input
          value={term}
          onChange={(event) => setTerm(event.target.value)}
          aria-label="Filter software environments"
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? 'software-filter-problem' : undefined}
          placeholder="Filter by name, or status:built, package_sync:True, creator:ada — then Enter"
          className="pl-8"
        />
      </form>
      <FieldError id="software-filter-problem" messages={problem ? [problem, ...problems] : problems} />
      <FilterChips filters={filters} label={chipText} onRemove={remove} onClear={() => onChange([])} />
      {hidesPackageSync ? (
        <p className="text-muted-foreground text-sm">
          Package-synced environments (made when a cluster starts from Python) are hidden by the package_sync:
          False filter.{' '}
          <Button
            variant="link"
            size="sm"
            className="h-auto p-0 text-sm"
            onClick={() => onChange(filters.filter((f) => f.key !== 'package_sync'))}
          >
            Show package-synced environments
          </Button>
        </p>
      ) : null}
    </div>
  );
}
