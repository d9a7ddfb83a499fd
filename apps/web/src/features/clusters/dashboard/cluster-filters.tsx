import { CheckIcon, ListFilterIcon, SearchIcon, UserIcon } from 'lucide-react';
import { FilterChips } from '@/components/filter-chips';
import { FieldError } from '@/components/form-field';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuCheckboxItem,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Input } from '@/components/ui/input';
import type { TagScope } from '@/data/tags/keys';
import { type Filter, parseFilterTerm, withFilter } from '@/features/clusters/dashboard/search-params';
import { useFilterTerm } from '@/hooks/use-filter-term';
import { useTagCompletions } from '@/hooks/use-tag-completions';
import { CLUSTER_STATES } from '@/lib/clusters/states';
import { cn } from '@/lib/utils';

type ClusterFiltersProps = {
  filters: Filter[];
  /** Where `tag:` completes from: the tags on the clusters of the listed scope. */
  tagScope: TagScope;
  onChange: (filters: Filter[]) => void;
  /** Problems with the filters the URL carried. */
  problems?: string[];
};

const chipText = (filter: Filter) =>
  filter.key === 'mine' ? 'Created by me' : `${filter.key}: ${filter.value}`;

const TAG = 'tag:';
const TAG_COMPLETIONS = 'cluster-tag-completions';

/**
 * The Dashboard's filters: a search bar taking `state:ready`, `tag:team:ml` (completed from the
 * tags of the scope's clusters), `mine` or part of a name; a state menu; a "Mine" toggle; and
 * the active filters as removable chips.
 */
export function ClusterFilters({ filters, tagScope, onChange, problems = [] }: ClusterFiltersProps) {
  const { term, setTerm, problem, submit } = useFilterTerm(parseFilterTerm, (filter) =>
    onChange(withFilter(filters, filter)),
  );
  const typingTag = term.toLowerCase().startsWith(TAG) ? term.slice(TAG.length) : null;
  const completions = useTagCompletions(typingTag, tagScope);
  const states = filters.filter((f) => f.key === 'state').map((f) => f.value);
  const mine = filters.some((f) => f.key === 'mine');

  function toggleState(state: string, on: boolean) {
    const rest = filters.filter((f) => !(f.key === 'state' && f.value === state));
    onChange(on ? withFilter(rest, { key: 'state', value: state }) : rest);
  }

  const remove = (filter: Filter) =>
    onChange(filters.filter((f) => !(f.key === filter.key && f.value === filter.value)));

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-2">
        <form onSubmit={submit} className="relative min-w-64 flex-1">
          <SearchIcon
            className="text-muted-foreground pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2"
            aria-hidden="true"
          />
          <Input
            value={term}
            onChange={(event) => setTerm(event.target.value)}
            aria-label="Filter clusters"
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? 'cluster-filter-problem' : undefined}
            placeholder="Filter by name, or state:ready, tag:team:ml, mine — then Enter"
            className="pl-8"
            list={TAG_COMPLETIONS}
          />
          <datalist id={TAG_COMPLETIONS}>
            {completions.map((completion) => (
              <option key={completion} value={`${TAG}${completion}`} />
            ))}
          </datalist>
        </form>
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <Button variant="outline" className={cn(states.length > 0 && 'border-primary/50')}>
              <ListFilterIcon />
              State
              {states.length > 0 ? (
                <span className="bg-primary/15 text-primary rounded px-1.5 text-xs tabular-nums">
                  {states.length}
                </span>
              ) : null}
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="end" className="w-44">
            <DropdownMenuLabel className="text-muted-foreground text-xs">
              Show clusters that are
            </DropdownMenuLabel>
            {CLUSTER_STATES.map((state) => (
              <DropdownMenuCheckboxItem
                key={state}
                checked={states.includes(state)}
                onCheckedChange={(on) => toggleState(state, on === true)}
                onSelect={(event) => event.preventDefault()}
                className="capitalize"
              >
                {state}
              </DropdownMenuCheckboxItem>
            ))}
          </DropdownMenuContent>
        </DropdownMenu>
        <Button
          variant="outline"
          aria-pressed={mine}
          onClick={() =>
            onChange(
              mine
                ? filters.filter((f) => f.key !== 'mine')
                : withFilter(filters, { key: 'mine', value: 'true' }),
            )
          }
          className={cn(mine && 'border-primary/50 text-primary')}
        >
          {mine ? <CheckIcon /> : <UserIcon />}
          Mine
        </Button>
      </div>
      <FieldError id="cluster-filter-problem" messages={problem ? [problem, ...problems] : problems} />
      <FilterChips filters={filters} label={chipText} onRemove={remove} onClear={() => onChange([])} />
    </div>
  );
}
