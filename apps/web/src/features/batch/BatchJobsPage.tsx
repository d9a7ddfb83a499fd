import { ListChecksIcon } from 'lucide-react';

import { PlaceholderPage } from '@/components/placeholder-page';

/** Placeholder until its capability lands; replace this page, keep the route. */
export function BatchJobsPage() {
  return (
    <PlaceholderPage title="Batch Jobs" description="Batch jobs across workspaces." icon={ListChecksIcon} />
  );
}
