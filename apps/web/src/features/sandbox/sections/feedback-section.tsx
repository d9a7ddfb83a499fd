import { BoxIcon, InfoIcon, TriangleAlertIcon } from 'lucide-react';
import { toast } from 'sonner';

import { EmptyState } from '@/components/empty-state';
import { ErrorState } from '@/components/error-state';
import { LoadingSkeleton } from '@/components/loading-skeleton';
import { PageSection } from '@/components/page';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';

export function FeedbackSection() {
  return (
    <PageSection
      id="feedback"
      title="Feedback"
      description="Alerts, toasts and the empty, error and loading states."
    >
      <div className="grid gap-4 lg:grid-cols-2">
        <Alert>
          <InfoIcon />
          <AlertTitle>Long-lived API tokens are here</AlertTitle>
          <AlertDescription>Create a token on the Profile page to use Cumulus from scripts.</AlertDescription>
        </Alert>
        <Alert variant="destructive">
          <TriangleAlertIcon />
          <AlertTitle>Monthly spent limit reached</AlertTitle>
          <AlertDescription>
            No new clusters can be created; pending clusters will be stopped shortly.
          </AlertDescription>
        </Alert>
      </div>
      <div className="bg-card flex flex-wrap items-center gap-3 rounded-xl border p-6">
        <Button variant="outline" onClick={() => toast.success('Workspace created')}>
          Success toast
        </Button>
        <Button variant="outline" onClick={() => toast.error('Error from server revoking token')}>
          Error toast
        </Button>
        <Button variant="outline" onClick={() => toast.info('Invite email resent')}>
          Info toast
        </Button>
        <Button
          variant="outline"
          onClick={() =>
            toast('Cluster stopping', {
              description: 'etl-nightly-1 will stop in a few seconds.',
              action: { label: 'Undo', onClick: () => toast.success('Cluster kept running') },
            })
          }
        >
          Toast with action
        </Button>
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <EmptyState
          icon={BoxIcon}
          title="No software environments"
          description="Build one from a conda or pip spec, or let package sync mirror your local environment."
          action={<Button size="sm">Get started</Button>}
        />
        <ErrorState message="Can't connect to the server" onRetry={() => toast.info('Retrying...')} />
      </div>
      <LoadingSkeleton variant="cards" rows={3} />
    </PageSection>
  );
}
