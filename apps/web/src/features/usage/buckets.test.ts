import { describe, expect, it } from 'vitest';

import { everyBucket } from '@/features/usage/buckets';

const bucket = (start: string, total: number) => ({ start, total, values: { all: total } });

describe('everyBucket', () => {
  it('fills the days without usage with zeros', () => {
    const days = everyBucket({
      start: '2030-01-01',
      end: '2030-01-04',
      period: 'day',
      buckets: [bucket('2030-01-02T00:00:00.000Z', 5)],
    });
    expect(days.map((day) => [day.start.slice(0, 10), day.total])).toEqual([
      ['2030-01-01', 0],
      ['2030-01-02', 5],
      ['2030-01-03', 0],
      ['2030-01-04', 0],
    ]);
  });

  it('starts weeks on Monday and months on the first, and keeps buckets that fit no slot', () => {
    const weeks = everyBucket({ start: '2030-01-02', end: '2030-01-14', period: 'week', buckets: [] });
    expect(weeks.map((week) => week.start.slice(0, 10))).toEqual(['2029-12-31', '2030-01-07', '2030-01-14']);
    const months = everyBucket({ start: '2030-01-15', end: '2030-03-01', period: 'month', buckets: [] });
    expect(months).toHaveLength(3);
    const odd = [bucket('2030-01-01T00:30:00.000Z', 1)];
    expect(everyBucket({ start: '2030-01-01', end: '2030-01-01', period: 'day', buckets: odd })).toBe(odd);
  });
});
