import { CalendarX2Icon, ChartColumnIcon, DownloadIcon } from 'lucide-react';

import { EmptyState } from '@/components/empty-state';
import { ErrorState } from '@/components/error-state';
import { LoadingSkeleton } from '@/components/loading-skeleton';
import { Page, PageHeader } from '@/components/page';
import { ScopePicker } from '@/components/scope-picker';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { type UsageReport, useUsageQuery } from '@/data/usage/usage-query';
import { type UsageSearch, usageQuery, useUsageSearch } from '@/features/usage/search-params';
import { GROUP_BY_LABELS } from '@/features/usage/units';
import { UsageChart } from '@/features/usage/usage-chart';
import { UsageControls } from '@/features/usage/usage-controls';
import { downloadUsageCsv } from '@/features/usage/usage-csv';
import { UsageTable } from '@/features/usage/usage-table';
import { errorMessage, isApiError } from '@/lib/api/errors';
import { useChartColors } from '@/lib/chart-colors';
import { usePageMeta } from '@/lib/page-meta';
import { useScope } from '@/lib/scopes';

/** The server's 400 messages about the query's dates and tag, shown beside those inputs. */
function queryErrors(error: unknown): string[] {
  if (!isApiError(error) || error.status !== 400) return [];
  return ['start', 'end', 'period', 'groupby_tag'].flatMap((field) => error.fieldErrors(field));
}

function groupLabel(search: UsageSearch): string {
  if (!search.groupBy) return 'Usage';
  return search.groupBy === 'tag' && search.tag ? `Tag: ${search.tag}` : GROUP_BY_LABELS[search.groupBy];
}

/** Usage (`/usage`): credits, costs or instance-minutes over time in the current scope, by group. */
export function UsagePage() {
  usePageMeta({ title: 'Usage', breadcrumbs: [{ label: 'Usage' }] });
  const { scope, error: scopeError } = useScope();
  const { search, change } = useUsageSearch();
  const usage = useUsageQuery({ query: scope ? usageQuery(search, scope) : null });
  const fieldErrors = queryErrors(usage.error);
  const failure = fieldErrors.length > 0 ? null : (usage.error ?? (scope ? null : scopeError));

  return (
    <Page>
      <PageHeader
        title="Usage"
        description="Credits and cloud spend over time, in the scope you pick."
        actions={<ScopePicker className="w-60 max-sm:w-full" />}
      />
      <UsageControls search={search} onChange={change} errors={fieldErrors} />
      {failure ? (
        <ErrorState
          title="Could not load usage"
          message={errorMessage(failure)}
          onRetry={() => void usage.refetch()}
          retrying={usage.isFetching}
        />
      ) : fieldErrors.length > 0 ? (
        <EmptyState
          icon={CalendarX2Icon}
          title="Choose another range"
          description="Fix the dates above to see usage."
        />
      ) : !usage.data ? (
        <div className="flex flex-col gap-4" aria-busy="true">
          <Skeleton className="h-72 w-full rounded-xl" />
          <LoadingSkeleton variant="table" columns={3} rows={3} />
        </div>
      ) : usage.data.groups.length === 0 || usage.data.total === 0 ? (
        <EmptyState
          icon={ChartColumnIcon}
          title="No usage in this range"
          description="Usage is recorded per instance-minute while clusters run: start a cluster, or choose a longer range or another scope."
        />
      ) : (
        <UsageReportView
          report={usage.data}
          groupLabel={groupLabel(search)}
          loading={usage.isPlaceholderData}
        />
      )}
    </Page>
  );
}

function UsageReportView({
  report,
  groupLabel,
  loading,
}: {
  report: UsageReport;
  groupLabel: string;
  loading: boolean;
}) {
  const color = useChartColors();
  const indexOf = new Map(report.groups.map((group, index) => [group.key, index]));
  const colorOf = (key: string) => color(indexOf.get(key) ?? 0);
  return (
    <div className={loading ? 'flex flex-col gap-4 opacity-60 transition-opacity' : 'flex flex-col gap-4'}>
      <section aria-label="Usage over time" className="bg-card flex flex-col gap-4 rounded-xl border p-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 className="text-sm font-medium">
            {groupLabel === 'Usage' ? 'Usage over time' : `By ${groupLabel.toLowerCase()}`}
          </h2>
          <Button variant="outline" size="sm" onClick={() => downloadUsageCsv(report)}>
            <DownloadIcon aria-hidden="true" />
            Download CSV
          </Button>
        </div>
        <UsageChart report={report} colorOf={colorOf} />
      </section>
      <UsageTable report={report} groupLabel={groupLabel} colorOf={colorOf} />
    </div>
  );
}
