import { ScrollTextIcon, ServerOffIcon } from 'lucide-react';
import { Link } from 'react-router';

import { EmptyState } from '@/components/empty-state';
import { PINNED_ACTIONS } from '@/components/pinned-column';
import { PlainTable } from '@/components/plain-table';
import { StateChip } from '@/components/state-chip';
import { Button } from '@/components/ui/button';
import { TableCell, TableRow } from '@/components/ui/table';
import type { ClusterDetails, ClusterProcess } from '@/data/clusters/cluster-details-query';
import { useClusterContext } from '@/features/clusters/cluster/cluster-context';
import { ClusterFirewall } from '@/features/clusters/cluster/cluster-firewall';
import { logsSearch } from '@/features/clusters/cluster/logs-search-params';
import { clusterLink } from '@/lib/clusters/links';
import { timeAgo } from '@/lib/format';
import { useFormatDateTime } from '@/lib/preferences';
import { cn } from '@/lib/utils';

type Row = { role: 'scheduler' | 'worker'; process: ClusterProcess };

const GONE = new Set(['stopped', 'error']);

/** The scheduler first, then workers; live ones before those that are gone, oldest first. */
export function instanceRows(cluster: Pick<ClusterDetails, 'scheduler' | 'workers'>): Row[] {
  const workers = cluster.workers
    .map((process) => ({ role: 'worker' as const, process }))
    .sort(
      (a, b) =>
        Number(GONE.has(a.process.currentState.state)) - Number(GONE.has(b.process.currentState.state)) ||
        a.process.id - b.process.id,
    );
  return [
    ...(cluster.scheduler ? [{ role: 'scheduler' as const, process: cluster.scheduler }] : []),
    ...workers,
  ];
}

/**
 * What a row's state says: an instance `ready` whose process is still
 * `starting` is downloading its environment; both up is Ready.
 */
function instanceLabel(instanceState: string, processState: string): string | undefined {
  if (instanceState !== 'ready') return undefined;
  if (processState === 'started') return 'Ready';
  if (processState === 'starting') return 'Downloading Environment';
  return undefined;
}

/** Instances: the machines (local process groups here) of the scheduler and the workers, and what is open to them. */
export function ClusterInstancesTab() {
  const { cluster } = useClusterContext();
  const formatDateTime = useFormatDateTime();
  const rows = instanceRows(cluster);

  if (rows.length === 0) {
    return (
      <EmptyState
        icon={ServerOffIcon}
        title="No instances yet"
        description="The control plane launches the scheduler's and the workers' instances in a moment."
      />
    );
  }
  const firewall = cluster.clusterOptions.firewallSpec;
  return (
    <div className="grid min-w-0 gap-4">
      {firewall ? <ClusterFirewall spec={firewall} schedulerPort={cluster.schedulerPort} /> : null}
      <PlainTable
        actionsLast
        headers={[
          'Instance',
          'Role',
          'State',
          'Dask process',
          'Addresses',
          'Last heartbeat',
          <span key="logs" className="sr-only">
            Logs
          </span>,
        ]}
      >
        {rows.map(({ role, process }) => {
          const instance = process.instance;
          const gone = GONE.has(process.currentState.state);
          return (
            <TableRow key={process.id} className={cn(gone && 'opacity-60')}>
              <TableCell className="px-4 py-2.5">
                <div className="flex flex-col">
                  <span className="font-mono text-sm">{instance?.name ?? process.name}</span>
                  {instance ? (
                    <span className="text-muted-foreground font-mono text-xs">
                      #{instance.id} · {instance.instanceTypeId}
                    </span>
                  ) : null}
                </div>
              </TableCell>
              <TableCell className="px-4 py-2.5 capitalize">{role}</TableCell>
              <TableCell className="px-4 py-2.5">
                {instance ? (
                  <StateChip
                    state={instance.currentState.state}
                    label={instanceLabel(instance.currentState.state, process.currentState.state)}
                    title={instance.currentState.reason || undefined}
                  />
                ) : (
                  <span className="text-muted-foreground text-sm">Not launched yet</span>
                )}
              </TableCell>
              <TableCell className="px-4 py-2.5">
                <StateChip
                  state={process.currentState.state}
                  title={process.currentState.reason || undefined}
                />
              </TableCell>
              <TableCell className="px-4 py-2.5">
                <div className="flex flex-col font-mono text-xs">
                  <span>{process.address ?? <span className="text-muted-foreground">—</span>}</span>
                  {instance?.privateIpAddress ? (
                    <span className="text-muted-foreground">
                      private {instance.privateIpAddress}
                      {instance.publicIpAddress ? ` · public ${instance.publicIpAddress}` : ''}
                    </span>
                  ) : null}
                </div>
              </TableCell>
              <TableCell className="text-muted-foreground px-4 py-2.5">
                {instance?.lastHeartbeat ? (
                  <time dateTime={instance.lastHeartbeat} title={formatDateTime(instance.lastHeartbeat)}>
                    {timeAgo(instance.lastHeartbeat)}
                  </time>
                ) : (
                  'Never'
                )}
              </TableCell>
              <TableCell className={cn('px-4 py-1.5 text-right', PINNED_ACTIONS)}>
                {instance ? (
                  <Button asChild variant="ghost" size="sm" className="text-muted-foreground">
                    <Link to={`${clusterLink(cluster, 'logs')}&${logsSearch({ instance: instance.id })}`}>
                      <ScrollTextIcon />
                      Logs
                    </Link>
                  </Button>
                ) : null}
              </TableCell>
            </TableRow>
          );
        })}
      </PlainTable>
    </div>
  );
}
