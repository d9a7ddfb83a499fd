import { CloudIcon } from 'lucide-react';

import { PlaceholderPage } from '@/components/placeholder-page';

/** Placeholder until its capability lands; replace this page, keep the route. */
export function CloudSetupPage() {
  return (
    <PlaceholderPage
      title="Cloud Setup"
      breadcrumbs={[{ label: 'Cloud' }]}
      description="Where this workspace runs its instances."
      icon={CloudIcon}
    />
  );
}
