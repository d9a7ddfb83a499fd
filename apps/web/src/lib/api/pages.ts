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

/** Rows asked for per page of a v2 `{items, count}` list read to its end. */
const ITEMS_PAGE = 500;
const MAX_ITEM_PAGES = 20;

/** Reads a v2 `{items, count}` list to its end, 500 at a time (`offset` from 0). */
export async function allItems<T>(
  fetchPage: (page: { offset: number; limit: number }) => Promise<{ items: T[]; count: number }>,
): Promise<T[]> {
  const items: T[] = [];
  for (let page = 0; page < MAX_ITEM_PAGES; page++) {
    const answer = await fetchPage({ offset: page * ITEMS_PAGE, limit: ITEMS_PAGE });
    items.push(...answer.items);
    if (answer.items.length < ITEMS_PAGE || items.length >= answer.count) break;
  }
  return items;
}
