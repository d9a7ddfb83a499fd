import type { FastifyRequest } from 'fastify';
import { z } from 'zod';

/** v1 lists page DRF-style: `?page=N` from 1, answered `{count, next, previous, results}`. */
export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(200).default(50),
});
export type PageQuery = z.infer<typeof pageQuery>;

export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    count: z.number().int(),
    next: z.string().nullable(),
    previous: z.string().nullable(),
    results: z.array(item),
  });

export function pageResult<T>(request: FastifyRequest, query: PageQuery, count: number, results: T[]) {
  const link = (page: number) => {
    const url = new URL(request.url, `${request.protocol}://${request.host}`);
    url.searchParams.set('page', String(page));
    return url.toString();
  };
  const last = Math.max(1, Math.ceil(count / query.page_size));
  return {
    count,
    next: query.page < last ? link(query.page + 1) : null,
    previous: query.page > 1 ? link(Math.min(query.page - 1, last)) : null,
    results,
  };
}

export const pageOffset = (query: PageQuery) => (query.page - 1) * query.page_size;

/** v2 lists page by offset and limit and answer `{items, count}`. */
export const offsetQuery = z.object({
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});
export type OffsetQuery = z.infer<typeof offsetQuery>;

export const itemsOf = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), count: z.number().int() });

/** The rows of one page: offset/limit of a v2 list, or the page of a v1 one. */
export type Window = { limit: number; offset: number };
export const windowOf = (page: OffsetQuery | PageQuery): Window =>
  'page_size' in page ? { limit: page.page_size, offset: pageOffset(page) } : page;

/**
 * One page of a list and the list's total, read at once: `rows` is the filtered, ordered select
 * (limit and offset are added here), `total` counts the same filter (`db.$count(table, where)`).
 */
export async function paginate<Row>(
  page: OffsetQuery | PageQuery,
  rows: { limit(n: number): { offset(n: number): PromiseLike<Row[]> } },
  total: PromiseLike<number>,
): Promise<{ rows: Row[]; count: number }> {
  const { limit, offset } = windowOf(page);
  const [found, count] = await Promise.all([rows.limit(limit).offset(offset), total]);
  return { rows: found, count };
}

/** A total that needs a join: the `select({ n: count() })` of the same filter, as `paginate` takes it. */
export const countRows = async (select: PromiseLike<{ n: number }[]>): Promise<number> =>
  (await select)[0]?.n ?? 0;
