import { describe, expect, it } from 'vitest';

import {
  invalidTermMessage,
  paginateQuery,
  parseDashboardSearch,
  parseFilterTerm,
  withFilter,
  writeDashboardSearch,
} from '@/features/clusters/dashboard/search-params';

const parse = (query: string) => parseDashboardSearch(new URLSearchParams(query));

describe('Dashboard URL state', () => {
  it('defaults to page 0, 50 per page, newest first, no filters', () => {
    expect(parse('')).toEqual({
      page: 0,
      pageSize: 50,
      filters: [],
      problems: [],
      orderBy: 'created',
      direction: 'desc',
    });
  });

  it('reads page, pagesize, filters (a JSON list of key/value pairs) and the order', () => {
    const filters = JSON.stringify([['state', 'ready'], { key: 'tag', value: 'team:ml' }, ['name', 'etl']]);
    expect(
      parse(`page=2&pagesize=25&filters=${encodeURIComponent(filters)}&order_by=name&order_by_direction=asc`),
    ).toEqual({
      page: 2,
      pageSize: 25,
      filters: [
        { key: 'state', value: 'ready' },
        { key: 'tag', value: 'team:ml' },
        { key: 'name', value: 'etl' },
      ],
      problems: [],
      orderBy: 'name',
      direction: 'asc',
    });
  });

  it('ignores what it cannot use, and says why for unknown search terms', () => {
    const filters = JSON.stringify([
      ['colour', 'blue'],
      ['state', 'sleepy'],
      ['state', 'READY'],
    ]);
    const search = parse(
      `page=-1&pagesize=abc&filters=${encodeURIComponent(filters)}&order_by=cost&order_by_direction=up`,
    );
    expect(search.page).toBe(0);
    expect(search.pageSize).toBe(50);
    expect(search.filters).toEqual([{ key: 'state', value: 'ready' }]);
    expect(search.problems[0]).toBe('colour is not a valid search term');
    expect(search.problems[1]).toMatch(/^sleepy is not a cluster state/);
    expect(search.orderBy).toBe('created');
    expect(search.direction).toBe('desc');
    expect(parse('filters=%7Bnot-json').problems).toEqual(['The filters in this link could not be read.']);
  });

  it('writes only what differs from the defaults, and returns to page 0 on any change but the page', () => {
    const start = new URLSearchParams('page=3&account=acme');
    const filtered = writeDashboardSearch(start, { filters: [{ key: 'state', value: 'ready' }] });
    expect(filtered.get('page')).toBeNull();
    expect(filtered.get('account')).toBe('acme');
    expect(JSON.parse(filtered.get('filters')!)).toEqual([['state', 'ready']]);

    const paged = writeDashboardSearch(filtered, { page: 4 });
    expect(paged.get('page')).toBe('4');
    expect(paged.get('filters')).toBe(filtered.get('filters'));

    const sorted = writeDashboardSearch(paged, { orderBy: 'name', direction: 'asc' });
    expect(sorted.get('page')).toBeNull();
    expect(sorted.get('order_by')).toBe('name');
    expect(sorted.get('order_by_direction')).toBe('asc');

    const sized = writeDashboardSearch(sorted, { pageSize: 50, filters: [] });
    expect(sized.get('pagesize')).toBeNull();
    expect(sized.get('filters')).toBeNull();
    // What is written reads back the same.
    expect(parseDashboardSearch(sorted).filters).toEqual([{ key: 'state', value: 'ready' }]);
  });
});

describe('filter terms', () => {
  it('reads key:value terms, "mine", and plain text as part of a name', () => {
    expect(parseFilterTerm(' state:Ready ')).toEqual({ key: 'state', value: 'ready' });
    expect(parseFilterTerm('tag:team:ml')).toEqual({ key: 'tag', value: 'team:ml' });
    expect(parseFilterTerm('tag:team')).toEqual({ key: 'tag', value: 'team' });
    expect(parseFilterTerm('name:etl')).toEqual({ key: 'name', value: 'etl' });
    expect(parseFilterTerm('mine')).toEqual({ key: 'mine', value: 'true' });
    expect(parseFilterTerm('nightly-etl')).toEqual({ key: 'name', value: 'nightly-etl' });
    expect(parseFilterTerm('   ')).toBeNull();
  });

  it("says '{key} is not a valid search term' for an unknown key", () => {
    expect(parseFilterTerm('region:eu')).toEqual({ problem: invalidTermMessage('region') });
    expect(invalidTermMessage('region')).toBe('region is not a valid search term');
    expect(parseFilterTerm('state:')).toEqual({ problem: 'Give state a value, like state:ready' });
  });

  it('keeps one name and one "mine", several states and tags, no repeats', () => {
    let filters = withFilter([], { key: 'name', value: 'a' });
    filters = withFilter(filters, { key: 'name', value: 'b' });
    filters = withFilter(filters, { key: 'state', value: 'ready' });
    filters = withFilter(filters, { key: 'state', value: 'error' });
    filters = withFilter(filters, { key: 'state', value: 'ready' });
    expect(filters).toEqual([
      { key: 'name', value: 'b' },
      { key: 'state', value: 'ready' },
      { key: 'state', value: 'error' },
    ]);
  });
});

describe('the paginate query', () => {
  it('pages by offset and limit and passes every filter as the API names it', () => {
    const search = parse(
      `page=2&pagesize=10&order_by=state&order_by_direction=asc&filters=${encodeURIComponent(
        JSON.stringify([
          ['name', 'etl'],
          ['state', 'ready'],
          ['state', 'error'],
          ['tag', 'team:ml'],
          ['mine', 'true'],
        ]),
      )}`,
    );
    expect(paginateQuery(search, { account: 'acme' })).toEqual({
      account: 'acme',
      offset: 20,
      limit: 10,
      order_by: 'state',
      order_by_direction: 'asc',
      name: 'etl',
      state: ['ready', 'error'],
      tags: ['team:ml'],
      just_mine: true,
    });
    expect(paginateQuery(parse(''), { compound_scope: 'everything' })).toEqual({
      compound_scope: 'everything',
      offset: 0,
      limit: 50,
      order_by: 'created',
      order_by_direction: 'desc',
    });
  });
});
