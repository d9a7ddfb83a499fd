import type { BetterLogsQuery, LogLine } from '@/data/clusters/cluster-logs-query';

// How the console keeps a cluster's log lines: appended as they arrive, repeats skipped, the newest kept.

/** Lines per better-logs call; a full page means more are waiting. */
export const LOG_PAGE = 1_000;
/** Pages read in one poll at most, so a huge backlog is read over several polls. */
const MAX_PAGES_PER_POLL = 10;
/** The view keeps the newest lines only. */
export const MAX_LINES = 5_000;
/**
 * Instances ship their lines independently, so a line may arrive stamped a little before the
 * newest one already shown: every poll looks back this far and skips what it already has.
 */
export const LOOKBACK_MS = 15_000;

export type LogBuffer = {
  lines: LogLine[];
  /** Older lines left out to keep the view at MAX_LINES. */
  dropped: number;
};

export const EMPTY_BUFFER: LogBuffer = { lines: [], dropped: 0 };

const lineKey = (line: LogLine) => `${line.timestamp}\u0000${line.instanceId}\u0000${line.message}`;

/**
 * `fetched` (lines from `since`, inclusive) added to `buffer`: lines it already holds are skipped
 * (counting repeats, since a line may really be printed twice), late lines are put in time order,
 * and only the newest MAX_LINES are kept.
 */
export function mergeLines(
  buffer: LogBuffer,
  fetched: readonly LogLine[],
  since: number,
  max = MAX_LINES,
): LogBuffer {
  const held = new Map<string, number>();
  for (let i = buffer.lines.length - 1; i >= 0; i--) {
    const line = buffer.lines[i]!;
    if (line.timestamp < since) break;
    held.set(lineKey(line), (held.get(lineKey(line)) ?? 0) + 1);
  }
  const added: LogLine[] = [];
  for (const line of fetched) {
    const key = lineKey(line);
    const count = held.get(key) ?? 0;
    if (count > 0) held.set(key, count - 1);
    else added.push(line);
  }
  if (added.length === 0) return buffer;
  const last = buffer.lines.at(-1);
  const inOrder = !last || added[0]!.timestamp >= last.timestamp;
  // Array.prototype.sort is stable: lines of the same millisecond keep their order.
  const lines = inOrder
    ? [...buffer.lines, ...added]
    : [...buffer.lines, ...added].sort((a, b) => a.timestamp - b.timestamp);
  const excess = Math.max(0, lines.length - max);
  return { lines: excess ? lines.slice(excess) : lines, dropped: buffer.dropped + excess };
}

/** Reads what is new since the buffer's newest line (looking back LOOKBACK_MS), page by page. */
export async function loadNewLines(
  read: (query: BetterLogsQuery) => Promise<LogLine[]>,
  query: BetterLogsQuery,
  start: LogBuffer,
): Promise<LogBuffer> {
  let buffer = start;
  const newest = buffer.lines.at(-1)?.timestamp;
  let since = newest === undefined ? undefined : Math.max(0, newest - LOOKBACK_MS);
  for (let page = 0; page < MAX_PAGES_PER_POLL; page++) {
    const fetched = await read({
      ...query,
      ...(since === undefined ? {} : { since_ms: since }),
      limit: LOG_PAGE,
    });
    buffer = mergeLines(buffer, fetched, since ?? 0);
    const last = fetched.at(-1)?.timestamp;
    // A short page is the end; a full one within a single millisecond cannot be paged past.
    if (fetched.length < LOG_PAGE || last === undefined || last === since) return buffer;
    since = last;
  }
  return buffer;
}
