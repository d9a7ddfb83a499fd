import { describe, expect, it } from 'vitest';

import {
  aliasesQuery,
  parseFilterTerm,
  parseSoftwareSearch,
  writeSoftwareSearch,
} from '@/features/software/search-params';

describe('the Software list URL', () => {
  it('hides package-synced environments by default, and keeps the default out of the URL', () => {
    const search = parseSoftwareSearch(new URLSearchParams(''));
    expect(search.filters).toEqual([{ key: 'package_sync', value: 'False' }]);
    expect(aliasesQuery(search, {})).toMatchObject({ package_sync: false, offset: 0, limit: 50 });
    const none = writeSoftwareSearch(new URLSearchParams(''), { filters: [] });
    expect(none.get('filters')).toBe('[]');
    expect(parseSoftwareSearch(none).filters).toEqual([]);
    expect(writeSoftwareSearch(none, { filters: search.filters }).has('filters')).toBe(false);
  });

  it('reads filters, pages and order from the URL, saying why a filter is not taken', () => {
    const search = parseSoftwareSearch(
      new URLSearchParams({
        filters: JSON.stringify([
          ['status', 'BUILT'],
          ['colour', 'blue'],
          ['name', 'etl'],
        ]),
        page: '2',
        pagesize: '10',
        order_by: 'name',
        order_by_direction: 'asc',
      }),
    );
    expect(search.filters).toEqual([
      { key: 'status', value: 'built' },
      { key: 'name', value: 'etl' },
    ]);
    expect(search.problems).toEqual(['colour is not a valid search term']);
    expect(aliasesQuery(search, { account: 'ws' })).toEqual({
      account: 'ws',
      offset: 20,
      limit: 10,
      order_by: 'name',
      order_by_direction: 'asc',
      name: 'etl',
      status: 'built',
    });
  });

  it('turns what is typed in the search bar into a filter', () => {
    expect(parseFilterTerm('etl')).toEqual({ key: 'name', value: 'etl' });
    expect(parseFilterTerm('package_sync:yes')).toEqual({ key: 'package_sync', value: 'True' });
    expect(parseFilterTerm('status:cooking')).toEqual({
      problem: 'cooking is not a build status (queued, building, built, error)',
    });
    expect(parseFilterTerm('owner:ada')).toEqual({ problem: 'owner is not a valid search term' });
  });
});
