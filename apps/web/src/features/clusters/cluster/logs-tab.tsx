import { SearchIcon } from 'lucide-react';
import * as React from 'react';

import { ErrorState } from '@/components/error-state';
import { FormAlert } from '@/components/form-alert';
import { LogView } from '@/components/log-view';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { useClusterLogsQuery } from '@/data/clusters/cluster-logs-query';
import { useClusterContext } from '@/features/clusters/cluster/cluster-context';
import { instanceRows } from '@/features/clusters/cluster/instances-tab';
import { logsQuery, useLogsSearch } from '@/features/clusters/cluster/logs-search-params';
import { errorMessage } from '@/lib/api/errors';
import { hasEnded } from '@/lib/clusters/states';
import { useFormatDateTime } from '@/lib/preferences';

/** New lines are asked for every 3 s (the console's log polling timer, section 9). */
const LOG_POLL_MS = 3_000;
/** Lines still arrive for a while after a cluster stops (its instances' last words). */
const TRAILING_MS = 60_000;
/** Typing in the filter asks the server once the typing pauses. */
const PATTERN_DEBOUNCE_MS = 300;
const ALL = 'all';

/** Logs: better-logs of the cluster with a filter pattern, an instance and the two sources. */
export function ClusterLogsTab() {
  const { cluster, clusterRef } = useClusterContext();
  const { search, change } = useLogsSearch();
  const formatDateTime = useFormatDateTime();
  const [pattern, setPattern] = React.useState(search.pattern);
  const typing = React.useRef<number | undefined>(undefined);
  // The timer must apply the pattern to the URL as it is then (a toggle may have changed it
  // meanwhile), so it calls the newest `change`, not the one of the render that started it.
  const latestChange = React.useRef(change);
  latestChange.current = change;

  // The URL follows the typing once it pauses; the box follows the URL (back, forward, links)
  // unless the user is still typing.
  function onPatternChange(value: string) {
    setPattern(value);
    window.clearTimeout(typing.current);
    typing.current = window.setTimeout(() => {
      typing.current = undefined;
      latestChange.current({ pattern: value });
    }, PATTERN_DEBOUNCE_MS);
  }
  React.useEffect(() => () => window.clearTimeout(typing.current), []);
  React.useEffect(() => {
    if (typing.current === undefined) setPattern(search.pattern);
  }, [search.pattern]);

  const state = cluster.currentState;
  const live = !hasEnded(state.state) || Date.now() - new Date(state.updated).getTime() < TRAILING_MS;
  const query = logsQuery(search);
  const logs = useClusterLogsQuery(
    { ref: clusterRef, query },
    { refetchInterval: live ? LOG_POLL_MS : false },
  );
  const instances = instanceRows(cluster).flatMap(({ role, process }) =>
    process.instance ? [{ id: process.instance.id, name: process.instance.name, role }] : [],
  );
  const lines = logs.data?.lines ?? [];
  // A call that failed is retried before the query errs: from the first failure on the tab says
  // the server cannot be reached, instead of skeletons under "Live".
  const failure = logs.error ?? (logs.failureCount > 0 ? logs.failureReason : null);

  return (
    <div className="grid grid-cols-1 gap-4">
      <div className="flex flex-wrap items-center gap-3">
        <div className="relative min-w-56 flex-1 max-sm:min-w-full">
          <SearchIcon
            className="text-muted-foreground pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2"
            aria-hidden="true"
          />
          <Input
            value={pattern}
            onChange={(event) => onPatternChange(event.target.value)}
            aria-label="Filter pattern"
            placeholder="Filter lines containing…"
            className="pl-8 font-mono"
            maxLength={500}
          />
        </div>
        <Select
          value={search.instance === null ? ALL : String(search.instance)}
          onValueChange={(value) => change({ instance: value === ALL ? null : Number(value) })}
        >
          <SelectTrigger aria-label="Instance" className="w-64 max-w-full">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={ALL}>All instances</SelectItem>
            {instances.map((instance) => (
              <SelectItem key={instance.id} value={String(instance.id)}>
                <span className="font-mono">{instance.name}</span>
                <span className="text-muted-foreground text-xs">{instance.role}</span>
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <div className="flex items-center gap-2">
          <Switch id="logs-dask" checked={search.dask} onCheckedChange={(dask) => change({ dask })} />
          <Label htmlFor="logs-dask" className="font-normal">
            Dask
          </Label>
        </div>
        <div className="flex items-center gap-2">
          <Switch id="logs-system" checked={search.system} onCheckedChange={(system) => change({ system })} />
          <Label htmlFor="logs-system" className="font-normal">
            System
          </Label>
        </div>
        <p
          className="text-muted-foreground ml-auto flex items-center gap-2 text-xs tabular-nums"
          aria-live="polite"
        >
          {failure ? (
            <span className="text-destructive inline-flex items-center gap-1.5">
              <span className="bg-destructive size-1.5 rounded-full" aria-hidden="true" />
              Unreachable
            </span>
          ) : live && query ? (
            <span className="text-success inline-flex items-center gap-1.5">
              <span className="bg-success size-1.5 animate-pulse rounded-full" aria-hidden="true" />
              Live
            </span>
          ) : null}
          {lines.length.toLocaleString('en-US')} {lines.length === 1 ? 'line' : 'lines'}
        </p>
      </div>
      {failure && lines.length === 0 ? (
        <ErrorState
          title="Could not load logs"
          message={errorMessage(failure)}
          onRetry={() => void logs.refetch()}
        />
      ) : (
        <>
          {failure ? <FormAlert>New lines could not be loaded: {errorMessage(failure)}</FormAlert> : null}
          <LogView
            lines={lines}
            dropped={logs.data?.dropped}
            formatTime={(timestamp) => formatDateTime(new Date(timestamp))}
            loading={query !== null && logs.isPending}
            emptyText={query ? undefined : 'Turn on Dask or System to see lines.'}
            instanceLabel={(name) =>
              name.startsWith(`${cluster.name}-`) ? name.slice(cluster.name.length + 1) : name
            }
          />
        </>
      )}
    </div>
  );
}
