import type { UserInteractionsQuery } from '@/data/staff/user-interactions-query';
import { filtersText, invalidTermMessage, parseTerm, readFilters } from '@/lib/filter-terms';
import { oneOf, param, searchParams } from '@/lib/search-params';

// The Staff page's URL state: `tab`, then each tab's own — `q` (users, organizations), `seen`
// (clusters), `filters` (interactions, a JSON list of key/value pairs) — and `page`/`pagesize`.

export const STAFF_TABS = [
  { id: 'users', label: 'Users' },
  { id: 'organizations', label: 'Organizations' },
  { id: 'clusters', label: 'Clusters' },
  { id: 'sso-domains', label: 'SSO domains' },
  { id: 'mail', label: 'Mail' },
  { id: 'interactions', label: 'Interactions' },
] as const;
export type StaffTab = (typeof STAFF_TABS)[number]['id'];

export const SEARCH_PARAM = 'q';
export const SEEN_PARAM = 'seen';
export const FILTERS_PARAM = 'filters';

const TAB_IDS = STAFF_TABS.map((tab) => tab.id) as [StaffTab, ...StaffTab[]];
const staffParams = searchParams({ tab: param<StaffTab>('tab', oneOf(TAB_IDS), 'users') });

export const readStaffTab = (search: URLSearchParams): StaffTab => staffParams.parse(search).tab;

/** Another tab opens on its defaults. */
export const writeStaffTab = (tab: StaffTab): URLSearchParams =>
  staffParams.write(new URLSearchParams(), { tab });

/** The filters of `interactions/user-interactions`: a record, so the generated type keeps it complete. */
const FILTER_KEYS: Record<Exclude<keyof UserInteractionsQuery, 'offset' | 'limit'>, true> = {
  account: true,
  organization: true,
  user: true,
  timestamp: true,
  action: true,
  version: true,
  source: true,
  success: true,
  error_message: true,
  error_class: true,
  is_staff: true,
};
export type InteractionFilterKey = keyof typeof FILTER_KEYS;
export type InteractionFilter = { key: InteractionFilterKey; value: string };

const isFilterKey = (key: string): key is InteractionFilterKey => Object.hasOwn(FILTER_KEYS, key);
const BOOLEAN_KEYS: ReadonlySet<InteractionFilterKey> = new Set(['success', 'is_staff']);

export { invalidTermMessage };

/** `key:value` (the value trimmed, at most 200 characters); booleans as true or false. */
export function checkInteractionFilter(key: string, raw: string): InteractionFilter | { problem: string } {
  if (!isFilterKey(key)) return { problem: invalidTermMessage(key) };
  const value = raw.trim().slice(0, 200);
  if (value === '')
    return { problem: `Give ${key} a value, like ${key}:${BOOLEAN_KEYS.has(key) ? 'false' : 'x'}` };
  if (BOOLEAN_KEYS.has(key)) {
    if (!/^(true|false)$/i.test(value)) return { problem: `${key} is true or false` };
    return { key, value: value.toLowerCase() };
  }
  if (key === 'version' && !/^\d{1,4}$/.test(value)) return { problem: 'version is a whole number' };
  return { key, value };
}

/** `action:cluster-create`; plain text searches error messages. */
export const parseInteractionTerm = (term: string): InteractionFilter | { problem: string } | null =>
  parseTerm(term, 'error_message', checkInteractionFilter);

/** Each key holds one value: a new one replaces the old. */
export const withInteractionFilter = (filters: readonly InteractionFilter[], filter: InteractionFilter) => [
  ...filters.filter((f) => f.key !== filter.key),
  filter,
];

export const readInteractionFilters = (
  raw: string | null,
): { filters: InteractionFilter[]; problems: string[] } =>
  raw
    ? readFilters(raw, {
        check: checkInteractionFilter,
        add: withInteractionFilter,
        max: 20,
        pairsOnly: true,
      })
    : { filters: [], problems: [] };

export const writeInteractionFilters = (filters: readonly InteractionFilter[]) => filtersText(filters);

/** The list call's query for these filters and page. */
export function interactionsQuery(
  filters: readonly InteractionFilter[],
  page: { page: number; pageSize: number },
): UserInteractionsQuery {
  const query: Record<string, string | number | boolean> = {
    offset: page.page * page.pageSize,
    limit: page.pageSize,
  };
  for (const { key, value } of filters) {
    query[key] = BOOLEAN_KEYS.has(key) ? value === 'true' : key === 'version' ? Number(value) : value;
  }
  return query as UserInteractionsQuery;
}
