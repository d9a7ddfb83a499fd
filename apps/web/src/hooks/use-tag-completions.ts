import type { TagScope } from '@/data/tags/keys';
import { useTagLabelsQuery } from '@/data/tags/tag-labels-query';
import { useTagValuesQuery } from '@/data/tags/tag-values-query';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { SCOPE_SEARCH_DEBOUNCE_MS } from '@/lib/scopes';

/**
 * Completions of a tag being typed, from the tags on the clusters of a scope: the keys starting
 * with it (`tags/labels`), or once it has a colon, that key's values (`tags/values`) as
 * `key:value`. `typed` null: nothing is being typed, nothing is asked.
 */
export function useTagCompletions(typed: string | null, scope: TagScope): string[] {
  const settled = useDebouncedValue(typed, SCOPE_SEARCH_DEBOUNCE_MS);
  const colon = settled?.indexOf(':') ?? -1;
  const key = colon < 0 ? '' : settled!.slice(0, colon);
  const labels = useTagLabelsQuery(
    { scope, startsWith: settled ?? '' },
    { enabled: settled !== null && colon < 0 },
  );
  const values = useTagValuesQuery(
    { scope, key, startsWith: colon < 0 ? '' : settled!.slice(colon + 1) },
    { enabled: key !== '' },
  );
  if (settled === null) return [];
  if (colon < 0) return (labels.data?.items ?? []).map((label) => label.key);
  if (key === '') return [];
  return (values.data?.items ?? []).map((pair) => `${pair.key}:${pair.value}`);
}

/**
 * The last of comma-separated tags being typed (`team:etl, env` → `env`), and what precedes it,
 * so a completion can replace just that one.
 */
export function lastTag(text: string): { before: string; typed: string } {
  const comma = text.lastIndexOf(',');
  if (comma < 0) return { before: '', typed: text.trimStart() };
  return { before: `${text.slice(0, comma + 1)} `, typed: text.slice(comma + 1).trimStart() };
}
