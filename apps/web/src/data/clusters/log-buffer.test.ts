import { describe, expect, it } from 'vitest';

import type { BetterLogsQuery } from '@/data/clusters/cluster-logs-query';
import { EMPTY_BUFFER, LOG_PAGE, loadNewLines, mergeLines } from '@/data/clusters/log-buffer';
import { logLine as line } from '@/data/clusters/test-fixtures';

describe('loading logs as they arrive', () => {
  it('skips lines it already holds (since_ms is inclusive) but keeps real repeats', () => {
    const first = mergeLines(EMPTY_BUFFER, [line(10, 'a'), line(20, 'b'), line(20, 'b')], 0);
    expect(first.lines.map((l) => l.message)).toEqual(['a', 'b', 'b']);
    // Asked again from 20: both b's come back, plus a third b and a c that are new.
    const next = mergeLines(first, [line(20, 'b'), line(20, 'b'), line(20, 'b'), line(30, 'c')], 20);
    expect(next.lines.map((l) => `${l.timestamp}${l.message}`)).toEqual(['10a', '20b', '20b', '20b', '30c']);
    // Nothing new: the very same buffer (no re-render).
    expect(mergeLines(next, [line(30, 'c')], 30)).toBe(next);
  });

  it('puts a late line from another instance in time order', () => {
    const buffer = mergeLines(EMPTY_BUFFER, [line(10, 'a', 1), line(50, 'c', 1)], 0);
    const merged = mergeLines(buffer, [line(10, 'a', 1), line(30, 'late', 2), line(50, 'c', 1)], 0);
    expect(merged.lines.map((l) => l.message)).toEqual(['a', 'late', 'c']);
  });

  it('keeps only the newest lines, counting the ones it dropped', () => {
    const merged = mergeLines(EMPTY_BUFFER, [line(1, 'a'), line(2, 'b'), line(3, 'c')], 0, 2);
    expect(merged).toEqual({ lines: [line(2, 'b'), line(3, 'c')], dropped: 1 });
  });

  it('asks from the newest line (looking back a little), and pages on while pages are full', async () => {
    const server = Array.from({ length: LOG_PAGE + 5 }, (_, i) => line(100_000 + i, `line ${i}`));
    const asked: BetterLogsQuery[] = [];
    // better-logs as the server answers it: oldest first, since_ms inclusive, at most `limit`.
    const read = async (query: BetterLogsQuery) => {
      asked.push(query);
      const since = query.since_ms ?? 0;
      return server.filter((l) => l.timestamp >= since).slice(0, query.limit);
    };
    const first = await loadNewLines(read, { filter_pattern: 'line' }, EMPTY_BUFFER);
    expect(first.lines).toHaveLength(LOG_PAGE + 5);
    expect(asked[0]).toEqual({ filter_pattern: 'line', limit: LOG_PAGE });
    expect(asked[1]).toEqual({ filter_pattern: 'line', since_ms: 100_000 + LOG_PAGE - 1, limit: LOG_PAGE });

    server.push(line(200_000, 'new'));
    const before = asked.length;
    const second = await loadNewLines(read, { filter_pattern: 'line' }, first);
    expect(second.lines.at(-1)?.message).toBe('new');
    expect(second.lines).toHaveLength(LOG_PAGE + 6);
    // Looked back 15 s from the newest line it had, then paged on past what it held.
    expect(asked.slice(before).map((query) => query.since_ms)).toEqual([
      100_000 + LOG_PAGE + 4 - 15_000,
      100_000 + LOG_PAGE - 1,
    ]);
  });
});
