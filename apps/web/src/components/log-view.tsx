import { ArrowDownIcon } from 'lucide-react';
import * as React from 'react';

import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import type { LogLine } from '@/data/clusters/cluster-logs-query';
import { cn } from '@/lib/utils';

/** Says so when there is nothing to show (the console's log grids, section 2). */
export const NO_LOGS = 'No logs';

/** Distinct, readable colours for instance names, picked by a stable hash of the name. */
const INSTANCE_COLOURS = [
  'text-sky-300',
  'text-violet-300',
  'text-emerald-300',
  'text-amber-300',
  'text-rose-300',
  'text-teal-300',
];

function colourOf(name: string): string {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return INSTANCE_COLOURS[hash % INSTANCE_COLOURS.length]!;
}

/** A line a few pixels above the bottom still counts as "at the newest line". */
const BOTTOM_SLACK_PX = 24;

type LogViewProps = {
  lines: readonly LogLine[];
  /** `yyyy-MM-dd HH:mm:ss` in the user's time zone. */
  formatTime: (timestamp: number) => string;
  loading?: boolean;
  /** Older lines that were left out of the view. */
  dropped?: number;
  emptyText?: React.ReactNode;
  /** How an instance is named in the view (the cluster's name left out, say). */
  instanceLabel?: (name: string) => string;
  className?: string;
};

/**
 * Log lines in time order, monospace: time, instance, message. Follows the newest line while the
 * reader is at the bottom; scrolled up, it stays put and offers a jump back down.
 */
export function LogView({
  lines,
  formatTime,
  loading = false,
  dropped = 0,
  emptyText = NO_LOGS,
  instanceLabel = (name) => name,
  className,
}: LogViewProps) {
  const scroller = React.useRef<HTMLDivElement>(null);
  const [following, setFollowing] = React.useState(true);

  const toBottom = React.useCallback(() => {
    const element = scroller.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, []);

  // New lines keep the newest in view while following.
  React.useLayoutEffect(() => {
    if (following && lines.length > 0) toBottom();
  }, [lines, following, toBottom]);

  function onScroll() {
    const element = scroller.current;
    if (!element) return;
    setFollowing(element.scrollHeight - element.scrollTop - element.clientHeight <= BOTTOM_SLACK_PX);
  }

  if (loading && lines.length === 0) {
    return (
      <div
        role="status"
        aria-busy="true"
        className={cn('bg-card grid gap-2 rounded-xl border p-4', className)}
      >
        <span className="sr-only">Loading logs…</span>
        {['w-3/4', 'w-1/2', 'w-2/3', 'w-5/6', 'w-1/3'].map((width) => (
          <Skeleton key={width} className={cn('h-4', width)} />
        ))}
      </div>
    );
  }

  return (
    <div className={cn('relative', className)}>
      <div
        ref={scroller}
        onScroll={onScroll}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the log is scrolled with the keyboard.
        tabIndex={0}
        role="log"
        aria-label="Log lines"
        aria-live="off"
        className="bg-background/70 focus-visible:ring-ring/50 h-[max(18rem,calc(100svh-27rem))] overflow-auto rounded-xl border font-mono text-xs leading-5 outline-none focus-visible:ring-[3px]"
      >
        {lines.length === 0 ? (
          <p className="text-muted-foreground flex h-full items-center justify-center font-sans text-sm">
            {emptyText}
          </p>
        ) : (
          <div className="py-2">
            {dropped > 0 ? (
              <p className="text-muted-foreground px-4 pb-2 font-sans">
                {dropped.toLocaleString('en-US')} older lines are not shown; narrow the filters to see them.
              </p>
            ) : null}
            {lines.map((line, index) => (
              <div
                // Lines have no id; their position in the (append-only, time-ordered) list is stable.
                // biome-ignore lint/suspicious/noArrayIndexKey: see above.
                key={index}
                data-slot="log-line"
                // A phone puts time and instance over the message, which keeps the width.
                className="hover:bg-muted/40 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 px-4 max-sm:pb-1 sm:grid-cols-[10.5rem_10rem_minmax(0,1fr)]"
              >
                <time className="text-muted-foreground tabular-nums select-none">
                  {formatTime(line.timestamp)}
                </time>
                <span className={cn('truncate', colourOf(line.instance))} title={line.instance}>
                  {instanceLabel(line.instance)}
                </span>
                <span
                  data-slot="log-message"
                  className="col-span-2 whitespace-pre-wrap [overflow-wrap:anywhere] sm:col-span-1 sm:pr-4"
                >
                  {line.message}
                </span>
              </div>
            ))}
          </div>
        )}
      </div>
      {!following && lines.length > 0 ? (
        <Button
          size="sm"
          variant="secondary"
          className="absolute right-4 bottom-4 shadow-lg"
          onClick={() => {
            setFollowing(true);
            toBottom();
          }}
        >
          <ArrowDownIcon />
          Newest
        </Button>
      ) : null}
    </div>
  );
}
