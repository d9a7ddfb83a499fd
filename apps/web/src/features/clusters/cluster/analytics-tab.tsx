import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { ComputationList } from '@/features/clusters/cluster/analytics/computation-list';
import { RunningNow } from '@/features/clusters/cluster/analytics/running-now';
import { type AnalyticsView, useAnalyticsParams } from '@/features/clusters/cluster/analytics/search-params';
import { SpansList } from '@/features/clusters/cluster/analytics/spans-list';
import { useClusterContext } from '@/features/clusters/cluster/cluster-context';
import { hasEnded } from '@/lib/clusters/states';

/** Lists refresh this often while the cluster runs (the scheduler reports every few seconds). */
const LIST_POLL_MS = 5_000;

/**
 * Analytics: what the cluster's Dask scheduler reported. What runs now (task groups, done/total)
 * on top, then its computations (code, task groups, durations, exceptions) and spans. Works
 * without Dask's dashboard; kept after the cluster stops.
 */
export function ClusterAnalyticsTab() {
  const { cluster } = useClusterContext();
  const [params, setParams] = useAnalyticsParams();
  const poll = hasEnded(cluster.currentState.state) ? false : LIST_POLL_MS;

  return (
    <div className="space-y-5">
      <RunningNow />
      <Tabs value={params.view} onValueChange={(view) => setParams({ view: view as AnalyticsView })}>
        <TabsList aria-label="Analytics sections">
          <TabsTrigger value="computations">Computations</TabsTrigger>
          <TabsTrigger value="spans">Spans</TabsTrigger>
        </TabsList>
        <TabsContent value="computations" className="pt-2">
          <ComputationList poll={poll} />
        </TabsContent>
        <TabsContent value="spans" className="pt-2">
          <SpansList poll={poll} />
        </TabsContent>
      </Tabs>
    </div>
  );
}
