import { FilterChips } from '@/components/filter-chips';
import { FieldError } from '@/components/form-field';
import {
  useInteractionKeysQuery,
  useInteractionValuesQuery,
  type ValueKey,
} from '@/data/staff/user-interaction-suggestions-query';
import { SearchBox } from '@/features/staff/search-box';
import {
  type InteractionFilter,
  parseInteractionTerm,
  withInteractionFilter,
} from '@/features/staff/search-params';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { useFilterTerm } from '@/hooks/use-filter-term';
import { SCOPE_SEARCH_DEBOUNCE_MS } from '@/lib/scopes';

const SUGGESTIONS = 'interaction-filter-suggestions';
/** The filters `key/values` completes (a record, so the generated type keeps it complete). */
const VALUE_KEYS: Record<ValueKey, true> = {
  account: true,
  organization: true,
  user: true,
  action: true,
  version: true,
  source: true,
  error_class: true,
};
const isValueKey = (key: string): key is ValueKey => Object.hasOwn(VALUE_KEYS, key);

/** Completions for what is typed: filter names (`keys`), then a filter's values (`key/values`). */
function useSuggestions(term: string): string[] {
  const text = useDebouncedValue(term.trim(), SCOPE_SEARCH_DEBOUNCE_MS);
  const colon = text.indexOf(':');
  const key = colon < 0 ? null : text.slice(0, colon);
  const valueKey = key !== null && isValueKey(key) ? key : null;
  const keys = useInteractionKeysQuery({ query: text }, { enabled: colon < 0 });
  const values = useInteractionValuesQuery({ key: valueKey, startsWith: text.slice(colon + 1) });
  if (colon < 0) return (keys.data?.items ?? []).map((name) => `${name}:`);
  return (values.data?.items ?? []).map((value) => `${key}:${value}`);
}

type InteractionFiltersProps = {
  filters: InteractionFilter[];
  onChange: (filters: InteractionFilter[]) => void;
  problems?: string[];
};

/** `action:cluster-create`, `success:false`, `user:ada`…, completed as typed; plain text searches errors. */
export function InteractionFilters({ filters, onChange, problems = [] }: InteractionFiltersProps) {
  const { term, setTerm, problem, submit } = useFilterTerm(parseInteractionTerm, (filter) =>
    onChange(withInteractionFilter(filters, filter)),
  );
  const suggestions = useSuggestions(term);

  return (
    <div className="flex flex-col gap-3">
      <form onSubmit={submit}>
        <SearchBox
          label="Filter interactions"
          placeholder="action:cluster-create, success:false, user:ada — then Enter"
          value={term}
          onChange={setTerm}
          list={SUGGESTIONS}
          className="max-w-xl"
        />
        <datalist id={SUGGESTIONS}>
          {suggestions.map((value) => (
            <option key={value} value={value} />
          ))}
        </datalist>
      </form>
      <FieldError messages={problem ? [problem, ...problems] : problems} />
      <FilterChips
        filters={filters}
        label={(filter) => `${filter.key}: ${filter.value}`}
        onRemove={(filter) => onChange(filters.filter((f) => f.key !== filter.key))}
        onClear={() => onChange([])}
      />
    </div>
  );
}
