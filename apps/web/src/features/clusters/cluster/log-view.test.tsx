import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import type { BetterLogsQuery, LogLine } from '@/features/clusters/api';
import { LogView, NO_LOGS } from '@/features/clusters/cluster/log-view';
import { logsQuery, parseLogsSearch, writeLogsSearch } from '@/features/clusters/cluster/logs-search-params';
import {
  EMPTY_BUFFER,
  LOG_PAGE,
  loadNewLines,
  mergeLines,
} from '@/features/clusters/cluster/use-cluster-logs';
import { formatDateTime } from '@/lib/preferences';

const line = (timestamp: number, message: string, instanceId = 1, instance = 'etl-scheduler'): LogLine => ({
  timestamp,
  instanceId,
  message,
  instance,
  source: 'dask',
});

const utc = (timestamp: number) => formatDateTime(new Date(timestamp), 'UTC');

describe('LogView', () => {
  it("says 'No logs' when there is nothing to show", () => {
    render(<LogView lines={[]} formatTime={utc} />);
    expect(screen.getByRole('log')).toHaveTextContent(NO_LOGS);
    expect(NO_LOGS).toBe('No logs');
  });

  it('shows a skeleton on the first load, not an empty log', () => {
    render(<LogView lines={[]} formatTime={utc} loading />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading logs…');
    expect(screen.queryByText(NO_LOGS)).toBeNull();
  });

  it('shows time (yyyy-MM-dd HH:mm:ss), instance and message for every line, in order', () => {
    const lines = [
      line(Date.UTC(2030, 0, 15, 12, 0, 1), 'Scheduler at: tls://127.0.0.1:8786'),
      line(
        Date.UTC(2030, 0, 15, 12, 0, 2),
        'Start worker at: tls://127.0.0.1:9000',
        2,
        'etl-worker-ab12cd34',
      ),
    ];
    render(<LogView lines={lines} formatTime={utc} instanceLabel={(name) => name.replace(/^etl-/, '')} />);
    const rows = screen.getAllByText(/at: tls/).map((element) => element.parentElement!);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('2030-01-15 12:00:01');
    expect(rows[0]).toHaveTextContent('scheduler');
    expect(rows[1]).toHaveTextContent('2030-01-15 12:00:02');
    expect(rows[1]).toHaveTextContent('worker-ab12cd34');
    // The full instance name stays available on hover.
    expect(screen.getByTitle('etl-worker-ab12cd34')).toHaveTextContent('worker-ab12cd34');
  });

  it('says how many older lines it left out', () => {
    render(<LogView lines={[line(1, 'x')]} dropped={1234} formatTime={utc} />);
    expect(screen.getByText(/1,234 older lines are not shown/)).toBeInTheDocument();
  });

  it('offers a jump back to the newest line once the reader scrolls up', () => {
    const lines = Array.from({ length: 50 }, (_, i) => line(i, `line ${i}`));
    render(<LogView lines={lines} formatTime={utc} />);
    const log = screen.getByRole('log');
    expect(screen.queryByRole('button', { name: 'Newest' })).toBeNull();
    // jsdom has no layout: pretend the log is taller than its box and scrolled to the top.
    Object.defineProperty(log, 'scrollHeight', { value: 2000, configurable: true });
    Object.defineProperty(log, 'clientHeight', { value: 400, configurable: true });
    log.scrollTop = 0;
    fireEvent.scroll(log);
    fireEvent.click(screen.getByRole('button', { name: 'Newest' }));
    expect(log.scrollTop).toBe(2000);
    expect(screen.queryByRole('button', { name: 'Newest' })).toBeNull();
  });
});

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

describe('Logs URL state', () => {
  it('reads and writes the pattern, instance and sources, keeping other parameters', () => {
    expect(parseLogsSearch(new URLSearchParams(''))).toEqual({
      pattern: '',
      instance: null,
      dask: true,
      system: true,
    });
    const written = writeLogsSearch(new URLSearchParams('account=acme'), {
      pattern: 'error',
      instance: 7,
      system: false,
    });
    expect(written.toString()).toBe('account=acme&q=error&instance=7&system=0');
    expect(parseLogsSearch(written)).toEqual({ pattern: 'error', instance: 7, dask: true, system: false });
    expect(writeLogsSearch(written, { pattern: ' ', instance: null, system: true }).toString()).toBe(
      'account=acme',
    );
    expect(parseLogsSearch(new URLSearchParams('instance=abc')).instance).toBeNull();
  });

  it('asks better-logs for exactly what is shown', () => {
    const search = (change: Partial<ReturnType<typeof parseLogsSearch>>) => ({
      ...parseLogsSearch(new URLSearchParams('')),
      ...change,
    });
    expect(logsQuery(search({}))).toEqual({});
    expect(logsQuery(search({ pattern: ' worker ', instance: 3 }))).toEqual({
      filter_pattern: 'worker',
      instance_ids: '3',
    });
    expect(logsQuery(search({ system: false }))).toEqual({ dask: true });
    expect(logsQuery(search({ dask: false }))).toEqual({ system: true });
    expect(logsQuery(search({ dask: false, system: false }))).toBeNull();
  });
});
