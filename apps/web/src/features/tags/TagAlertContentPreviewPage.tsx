import { BellOffIcon } from 'lucide-react';
import * as React from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';

import { DocumentTitle } from '@/components/document-title';
import { EmptyState } from '@/components/empty-state';
import { ErrorState } from '@/components/error-state';
import { FormField } from '@/components/form-field';
import { LoadingSkeleton } from '@/components/loading-skeleton';
import { Page, PageHeader, PageSection } from '@/components/page';
import { PublicHeader } from '@/components/public-header';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Textarea } from '@/components/ui/textarea';
import { useTagAlertContentsQuery } from '@/data/tags/tag-alert-contents-query';
import {
  MESSAGE_MAX,
  PREVIEW_LEVELS,
  parsePreviewSearch,
  writePreviewSearch,
} from '@/features/tags/search-params';
import { TagAlertCard } from '@/features/tags/tag-alert-card';
import { lastTag, useTagCompletions } from '@/hooks/use-tag-completions';
import { errorMessage } from '@/lib/api/errors';
import { useSession } from '@/lib/api/session';
import { loginPathFor } from '@/lib/return-to';

const EXAMPLE = {
  title: 'Workers are running out of memory',
  message:
    'Worker **etl-worker-3** was restarted twice after reaching its memory limit.\n\n' +
    '- Look at [its logs](/clusters) in the console\n- Read [Dask’s advice](https://docs.dask.org) on memory',
};

/**
 * /tag-alert-content-preview (public): how an alert's markdown reads
 * in the console, written here and shareable as a link; signed in, the alerts of one's own
 * clusters that carry given tags (GET tags/alert-contents), rendered the same way.
 */
export function TagAlertContentPreviewPage() {
  const [params, setParams] = useSearchParams();
  const search = parsePreviewSearch(params);
  const update = (change: Parameters<typeof writePreviewSearch>[1]) =>
    setParams(writePreviewSearch(params, change), { replace: true });
  const { token } = useSession();
  const location = useLocation();
  const writing = search.title !== '' || search.message !== '';

  return (
    <div className="flex min-h-svh flex-col">
      <DocumentTitle title="Tag alert content preview" />
      <PublicHeader />
      <Page className="max-w-5xl">
        <PageHeader
          title="Tag alert content preview"
          description="How an alert reads in the console. Messages are markdown; a link is kept when it is a web, mail or phone link or a path of this console, and any other becomes a link that does nothing."
        />
        <div className="grid min-w-0 gap-6 md:grid-cols-2">
          <PageSection title="Write an alert">
            <Card>
              <CardContent className="grid gap-4">
                <FormField label="Level">
                  <Select
                    value={String(search.level)}
                    onValueChange={(level) => update({ level: Number(level) })}
                  >
                    <SelectTrigger className="w-full">
                      <SelectValue />
                    </SelectTrigger>
                    <SelectContent>
                      {PREVIEW_LEVELS.map(({ level, label }) => (
                        <SelectItem key={level} value={String(level)}>
                          {label} ({level})
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                </FormField>
                <FormField label="Title">
                  <Input
                    value={search.title}
                    maxLength={200}
                    placeholder={EXAMPLE.title}
                    onChange={(event) => update({ title: event.target.value })}
                  />
                </FormField>
                <FormField label="Message (markdown)" description={`At most ${MESSAGE_MAX} characters.`}>
                  <Textarea
                    value={search.message}
                    maxLength={MESSAGE_MAX}
                    rows={6}
                    placeholder={EXAMPLE.message}
                    className="font-mono text-xs"
                    onChange={(event) => update({ message: event.target.value })}
                  />
                </FormField>
              </CardContent>
            </Card>
          </PageSection>
          <PageSection
            title="Preview"
            description={
              writing
                ? 'Share this page’s address to show it to someone.'
                : 'An example, until you write one.'
            }
          >
            <TagAlertCard
              alert={
                writing
                  ? { level: search.level, title: search.title, message: search.message }
                  : { level: search.level, ...EXAMPLE }
              }
            />
          </PageSection>
        </div>
        <PageSection
          title="Alerts from your clusters’ tags"
          description="What went wrong on your clusters that carry these tags, as the console shows it."
        >
          {token ? (
            <TaggedAlerts tags={search.tags} onTags={(tags) => update({ tags })} />
          ) : (
            <p className="text-muted-foreground text-sm">
              <Link to={loginPathFor(location)} className="text-primary hover:underline">
                Sign in
              </Link>{' '}
              to see the alerts of your own clusters.
            </p>
          )}
        </PageSection>
      </Page>
    </div>
  );
}

const TAG_COMPLETIONS = 'alert-tag-completions';
/** The tags of all the caller's clusters (what alert-contents looks through). */
const EVERY_CLUSTER = {};

function TaggedAlerts({ tags, onTags }: { tags: string; onTags: (tags: string) => void }) {
  const [draft, setDraft] = React.useState(tags);
  const alerts = useTagAlertContentsQuery({ tags });
  // The tag being typed completes from the tags of the caller's clusters.
  const { before, typed } = lastTag(draft);
  const completions = useTagCompletions(typed, EVERY_CLUSTER);
  return (
    <div className="grid gap-4">
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          onTags(draft.trim());
        }}
      >
        <FormField
          label="Tags"
          description="key or key:value, comma separated; empty: every tag"
          className="min-w-0 flex-1"
        >
          <Input
            value={draft}
            maxLength={500}
            placeholder="team:etl"
            list={TAG_COMPLETIONS}
            onChange={(event) => setDraft(event.target.value)}
          />
        </FormField>
        <datalist id={TAG_COMPLETIONS}>
          {completions.map((completion) => (
            <option key={completion} value={`${before}${completion}`} />
          ))}
        </datalist>
        <Button type="submit" variant="outline" className="mb-[1.625rem]">
          Show alerts
        </Button>
      </form>
      {alerts.isPending ? (
        <LoadingSkeleton variant="cards" rows={2} />
      ) : alerts.isError ? (
        <ErrorState
          message={errorMessage(alerts.error)}
          onRetry={() => alerts.refetch()}
          retrying={alerts.isFetching}
        />
      ) : alerts.data.items.length === 0 ? (
        <EmptyState
          icon={BellOffIcon}
          title={tags ? 'No alerts on clusters with these tags' : 'No alerts on your clusters'}
          description="Alerts appear here when a cluster fails or Cumulus keeps retrying something on it."
        />
      ) : (
        <section aria-label="Alerts from tags" className="grid gap-2">
          {alerts.data.items.map((alert) => (
            <TagAlertCard
              key={`${alert.clusterId}-${alert.title}-${alert.firstOccurred}`}
              alert={{
                level: alert.level,
                title: alert.title,
                message: alert.message,
                firstOccurred: alert.firstOccurred,
                cluster: { id: alert.clusterId, name: alert.clusterName, account: alert.account },
                tags: alert.tags,
              }}
            />
          ))}
        </section>
      )}
    </div>
  );
}
