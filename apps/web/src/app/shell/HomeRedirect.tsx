import { Navigate } from 'react-router';

import { LoadingSkeleton } from '@/components/loading-skeleton';
import { Page } from '@/components/page';
import { useFlagsQuery } from '@/data/interactions/flags-query';
import { paths } from '@/lib/paths';

const THREE_CLUSTERS = 'has-created-at-least-three-clusters' as const;

/** Root and any unknown path: the clusters dashboard after three clusters, else Get Started. */
export function HomeRedirect() {
  const flags = useFlagsQuery();
  if (flags.isPending) {
    return (
      <Page>
        <LoadingSkeleton variant="page" />
      </Page>
    );
  }
  return <Navigate to={flags.data?.[THREE_CLUSTERS] ? paths.clusters : paths.getStarted} replace />;
}
