import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LogView, NO_LOGS } from '@/components/log-view';
import { logLine as line } from '@/data/clusters/test-fixtures';
import { formatDateTime } from '@/lib/preferences';

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
