import { LayoutDashboardIcon } from 'lucide-react';

import { PlaceholderPage } from '@/components/placeholder-page';

/** Placeholder until its capability lands; replace this page, keep the route. */
export function ClustersPage() {
  return (
    <PlaceholderPage
      title="Dashboard"
      breadcrumbs={[{ label: 'Clusters' }]}
      description="Your clusters in the current workspace."
      icon={LayoutDashboardIcon}
    />
  );
}
