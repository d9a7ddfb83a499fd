/** Pages read before giving up; a DRF-style list longer than this is a server bug, not data. */
const MAX_PAGES = 50;

/** Reads a v1 list page by page (`page` from 1) until `next` is null, as the spec's clients do. */
export async function allPages<T>(
  fetchPage: (page: number) => Promise<{ results: T[]; next: string | null }>,
): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const { results, next } = await fetchPage(page);
    items.push(...results);
    if (!next || results.length === 0) break;
  }
  return items;
}
