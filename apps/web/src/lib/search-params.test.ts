import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { filtersText, parseTerm, readFilters } from '@/lib/filter-terms';
import { oneOf, param, readAs, searchParams, text, wholeNumber } from '@/lib/search-params';

const url = (query: string) => new URLSearchParams(query);

const page = searchParams({
  view: param<'list' | 'grid'>('view', oneOf(['list', 'grid']), 'list'),
  page: param('page', wholeNumber({ max: 99 }), 0),
  id: param<number | null>('id', wholeNumber({ min: 1, digits: 3 }), null),
  q: param('q', text(5, { trim: true }), ''),
  live: param(
    'live',
    readAs((raw) => raw !== '0'),
    true,
    (on) => (on ? null : '0'),
  ),
});

describe('a page’s URL state from one declaration', () => {
  it('reads each parameter through its schema', () => {
    expect(page.parse(url('view=grid&page=7&id=42&q=%20abcdefgh&live=0'))).toEqual({
      view: 'grid',
      page: 7,
      id: 42,
      q: 'abcde',
      live: false,
    });
  });

  it('gives the default for an absent or invalid value, never an error', () => {
    const defaults = { view: 'list', page: 0, id: null, q: '', live: true };
    expect(page.parse(url(''))).toEqual(defaults);
    for (const query of ['view=table', 'page=-1', 'page=1.5', 'page=100', 'id=0', 'id=1234', 'id=x']) {
      const { q, live, ...rest } = page.parse(url(query));
      expect({ ...rest, q, live }).toEqual(defaults);
    }
  });

  it('writes values back, leaving out defaults and empty values and keeping other parameters in place', () => {
    const out = page.write(url('account=acme&page=3&tab=x'), { page: 0, view: 'grid', q: '', live: false });
    expect(out.toString()).toBe('account=acme&tab=x&view=grid&live=0');
    expect(page.write(out, { page: 2, id: null, live: true }).toString()).toBe(
      'account=acme&tab=x&view=grid&page=2',
    );
    // Only the values given are touched.
    expect(page.write(url('view=grid&q=abc'), { page: 1 }).toString()).toBe('view=grid&q=abc&page=1');
  });

  it('round-trips what it wrote', () => {
    const state = { view: 'grid' as const, page: 5, id: 9, q: 'etl', live: false };
    expect(page.parse(page.write(url('account=acme'), state))).toEqual(state);
  });

  it('takes a zod schema as a parameter’s schema', () => {
    const sized = searchParams({ size: param('size', z.coerce.number().int().min(1).max(8), 4) });
    expect(sized.parse(url('size=8'))).toEqual({ size: 8 });
    expect(sized.parse(url('size=9'))).toEqual({ size: 4 });
    expect(sized.write(url('size=8'), { size: 4 }).toString()).toBe('');
  });
});

describe('filter terms and lists', () => {
  const check = (key: string, value: string) =>
    key === 'name' || key === 'state' ? { key, value: value.trim() } : { problem: `${key} is not known` };
  const add = (filters: readonly { key: string; value: string }[], f: { key: string; value: string }) => [
    ...filters.filter((old) => old.key !== f.key),
    f,
  ];

  it('reads `key:value` and plain text as the default key', () => {
    expect(parseTerm('  ', 'name', check)).toBeNull();
    expect(parseTerm('etl', 'name', check)).toEqual({ key: 'name', value: 'etl' });
    expect(parseTerm('state: ready', 'name', check)).toEqual({ key: 'state', value: 'ready' });
    expect(parseTerm('colour:red', 'name', check)).toEqual({ problem: 'colour is not known' });
  });

  it('reads a JSON list of pairs, saying what it ignored', () => {
    const raw = filtersText([
      { key: 'name', value: 'a' },
      { key: 'colour', value: 'red' },
      { key: 'name', value: 'b' },
    ]);
    expect(readFilters(raw, { check, add, max: 10 })).toEqual({
      filters: [{ key: 'name', value: 'b' }],
      problems: ['colour is not known'],
    });
    expect(readFilters('[{"key":"state","value":"up"}]', { check, add, max: 10 }).filters).toEqual([
      { key: 'state', value: 'up' },
    ]);
    expect(
      readFilters('[{"key":"state","value":"up"}]', { check, add, max: 10, pairsOnly: true }).filters,
    ).toEqual([]);
    expect(readFilters('[["name","a"],["state","b"]]', { check, add, max: 1 }).filters).toHaveLength(1);
    expect(readFilters('{oops', { check, add, max: 10, unreadable: [{ key: 'name', value: 'x' }] })).toEqual({
      filters: [{ key: 'name', value: 'x' }],
      problems: ['The filters in this link could not be read.'],
    });
  });
});
