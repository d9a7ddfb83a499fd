import type { UserInteractionsQuery } from '@/data/staff/user-interactions-query';

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

const TAB_PARAM = 'tab';
export const SEARCH_PARAM = 'q';
export const SEEN_PARAM = 'seen';
export const FILTERS_PARAM = 'filters';

export function readStaffTab(search: URLSearchParams): StaffTab {
  const tab = search.get(TAB_PARAM);
  return STAFF_TABS.find((candidate) => candidate.id === tab)?.id ?? 'users';
}

/** Another tab opens on its defaults. */
export function writeStaffTab(tab: StaffTab): URLSearchParams {
  return new URLSearchParams(tab === 'users' ? {} : { [TAB_PARAM]: tab });
}

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

export const invalidTermMessage = (key: string) => `${key} is not a valid search term`;

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
export function parseInteractionTerm(term: string): InteractionFilter | { problem: string } | null {
  const text = term.trim();
  if (text === '') return null;
  const colon = text.indexOf(':');
  if (colon < 0) return checkInteractionFilter('error_message', text);
  return checkInteractionFilter(text.slice(0, colon).trim(), text.slice(colon + 1));
}

/** Each key holds one value: a new one replaces the old. */
export const withInteractionFilter = (filters: readonly InteractionFilter[], filter: InteractionFilter) => [
  ...filters.filter((f) => f.key !== filter.key),
  filter,
];

export function readInteractionFilters(raw: string | null): {
  filters: InteractionFilter[];
  problems: string[];
} {
  if (!raw) return { filters: [], problems: [] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    parsed = null;
  }
  if (!Array.isArray(parsed))
    return { filters: [], problems: ['The filters in this link could not be read.'] };
  let filters: InteractionFilter[] = [];
  const problems: string[] = [];
  for (const entry of parsed.slice(0, 20)) {
    const [key, value] = Array.isArray(entry) ? entry : [];
    if (typeof key !== 'string') continue;
    const checked = checkInteractionFilter(key, String(value ?? ''));
    if ('problem' in checked) problems.push(checked.problem);
    else filters = withInteractionFilter(filters, checked);
  }
  return { filters, problems };
}

export const writeInteractionFilters = (filters: readonly InteractionFilter[]) =>
  JSON.stringify(filters.map((f) => [f.key, f.value]));

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
