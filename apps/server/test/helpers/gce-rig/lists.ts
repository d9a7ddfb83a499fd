import { badRequest } from './operations.js';

/**
 * Compute Engine's list filter, as far as the rig needs it: terms `field = "value"` or
 * `field != value` (dotted fields, `labels.env`), joined by AND or by parenthesised terms side by
 * side. Anything else is refused with Google's message, never ignored.
 */
export function matcher(filter: string | undefined): (item: Record<string, unknown>) => boolean {
  if (!filter?.trim()) return () => true;
  const terms: { path: string[]; negate: boolean; value: string }[] = [];
  const parts = filter
    .split(/\)\s*(?:AND\s*)?\(|\s+AND\s+/)
    .map((p) => p.replace(/^\s*\(|\)\s*$/g, '').trim());
  for (const part of parts) {
    const m = /^([A-Za-z][\w.-]*)\s*(=|!=|eq|ne)\s*(?:"([^"]*)"|([^\s"()]+))$/.exec(part);
    if (!m)
      throw badRequest(`Invalid value for field 'filter': '${filter}'. Invalid list filter expression.`);
    const [, field, op, quoted, bare] = m;
    terms.push({ path: field!.split('.'), negate: op === '!=' || op === 'ne', value: quoted ?? bare! });
  }
  return (item) =>
    terms.every(({ path, negate, value }) => {
      let v: unknown = item;
      for (const key of path) v = (v as Record<string, unknown> | undefined)?.[key];
      const equal = v !== undefined && String(v) === value;
      return negate ? !equal : equal;
    });
}

/** One page of a list (`maxResults`, up to 500; `pageToken` is where the next page starts). */
export function page<T>(items: T[], query: Record<string, string>): { items: T[]; nextPageToken?: string } {
  const max = Math.min(Number(query.maxResults ?? 500) || 500, 500);
  const start = query.pageToken ? Number(query.pageToken) : 0;
  if (!Number.isInteger(start) || start < 0 || start > items.length)
    throw badRequest(`Invalid value for field 'pageToken': '${query.pageToken}'.`);
  const slice = items.slice(start, start + max);
  return start + max < items.length ? { items: slice, nextPageToken: String(start + max) } : { items: slice };
}
