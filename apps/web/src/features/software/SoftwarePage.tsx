import { PackageIcon } from 'lucide-react';

import { PlaceholderPage } from '@/components/placeholder-page';

/** Placeholder until its capability lands; replace this page, keep the route. */
export function SoftwarePage() {
  return (
    <PlaceholderPage
      title="Software Environments"
      breadcrumbs={[{ label: 'Software Environments' }]}
      description="Environments your clusters run with."
      icon={PackageIcon}
    />
  );
}
