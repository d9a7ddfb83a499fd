import { Navigate } from 'react-router';

import { LoadingSkeleton } from '@/components/loading-skeleton';
import { Page } from '@/components/page';
import { useFlagsQuery } from '@/data/interactions/flags-query';
import { paths } from '@/lib/paths';
import { readStored, STORAGE_KEYS } from '@/lib/storage';

const THREE_CLUSTERS = 'has-created-at-least-three-clusters' as const;

/** Root and any unknown path: Billing after an upgrade link, the clusters dashboard after three clusters, else Get Started. */
export function HomeRedirect() {
  const flags = useFlagsQuery();
  // A visitor who chose to upgrade before signing in goes to Billing (the shell then forgets the
  // choice); deciding it here too keeps Get Started from racing the shell's redirect.
  if (readStored(STORAGE_KEYS.upgrade) === 'true') return <Navigate to={paths.billing} replace />;
  if (flags.isPending) {
    return (
      <Page>
        <LoadingSkeleton variant="page" />
      </Page>
    );
  }
  return <Navigate to={flags.data?.[THREE_CLUSTERS] ? paths.clusters : paths.getStarted} replace />;
}
