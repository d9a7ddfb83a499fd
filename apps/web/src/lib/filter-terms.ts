// The filter bars' shared grammar: a term typed as `key:value` (plain text names a default key),
// and a `filters` URL parameter holding a JSON list of [key, value] pairs, each checked by the page.

export type Filter<K extends string = string> = { key: K; value: string };
export type Problem = { problem: string };
type Check<F> = (key: string, value: string) => F | Problem;

export const invalidTermMessage = (key: string) => `${key} is not a valid search term`;
const UNREADABLE = 'The filters in this link could not be read.';

/** `key:value`, or plain text as the value of `plainKey`; null for nothing typed. */
export function parseTerm<F>(term: string, plainKey: string, check: Check<F>): F | Problem | null {
  const text = term.trim();
  if (text === '') return null;
  const colon = text.indexOf(':');
  if (colon < 0) return check(plainKey, text);
  return check(text.slice(0, colon).trim(), text.slice(colon + 1));
}

/** The `filters` parameter's text. */
export const filtersText = (filters: readonly Filter[]) =>
  JSON.stringify(filters.map((f) => [f.key, f.value]));

/**
 * The filters of a `filters` parameter: at most `max` entries, each a [key, value] pair (or, unless
 * `pairsOnly`, a {key, value} object), checked and merged by `add`; what fails is said in `problems`.
 * A list that is not JSON gives `unreadable` and one problem.
 */
export function readFilters<F extends Filter>(
  raw: string,
  options: {
    check: Check<F>;
    add: (filters: readonly F[], filter: F) => F[];
    max: number;
    unreadable?: F[];
    pairsOnly?: boolean;
  },
): { filters: F[]; problems: string[] } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    parsed = null;
  }
  if (!Array.isArray(parsed)) return { filters: options.unreadable ?? [], problems: [UNREADABLE] };
  let filters: F[] = [];
  const problems: string[] = [];
  for (const entry of parsed.slice(0, options.max)) {
    const [key, value] = Array.isArray(entry) ? entry : options.pairsOnly ? [] : [entry?.key, entry?.value];
    if (typeof key !== 'string') continue;
    const checked = options.check(key, typeof value === 'string' ? value : String(value ?? ''));
    if ('problem' in checked) problems.push(checked.problem);
    else filters = options.add(filters, checked);
  }
  return { filters, problems };
}
