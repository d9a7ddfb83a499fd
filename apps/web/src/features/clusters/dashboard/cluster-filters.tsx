import { CheckIcon, ListFilterIcon, SearchIcon, UserIcon, XIcon } from 'lucide-react';
import * as React from 'react';

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
import { type Filter, parseFilterTerm, withFilter } from '@/features/clusters/dashboard/search-params';
import { CLUSTER_STATES } from '@/features/clusters/states';
import { cn } from '@/lib/utils';

type ClusterFiltersProps = {
  filters: Filter[];
  onChange: (filters: Filter[]) => void;
  /** Problems with the filters the URL carried. */
  problems?: string[];
};

const chipText = (filter: Filter) =>
  filter.key === 'mine' ? 'Created by me' : `${filter.key}: ${filter.value}`;

/**
 * The Dashboard's filters: a search bar taking `state:ready`, `tag:team:ml`, `mine` or part of a
 * name; a state menu; a "Mine" toggle; and the active filters as removable chips.
 */
export function ClusterFilters({ filters, onChange, problems = [] }: ClusterFiltersProps) {
  const [term, setTerm] = React.useState('');
  const [problem, setProblem] = React.useState<string | null>(null);
  const states = filters.filter((f) => f.key === 'state').map((f) => f.value);
  const mine = filters.some((f) => f.key === 'mine');

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
            onChange={(event) => {
              setTerm(event.target.value);
              setProblem(null);
            }}
            aria-label="Filter clusters"
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? 'cluster-filter-problem' : undefined}
            placeholder="Filter by name, or state:ready, tag:team:ml, mine — then Enter"
            className="pl-8"
          />
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
      {filters.length > 0 ? (
        <ul aria-label="Active filters" className="flex flex-wrap items-center gap-2">
          {filters.map((filter) => (
            <li key={`${filter.key}:${filter.value}`}>
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
