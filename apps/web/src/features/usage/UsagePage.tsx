import { ChartColumnIcon } from 'lucide-react';

import { PlaceholderPage } from '@/components/placeholder-page';

/** Placeholder until its capability lands; replace this page, keep the route. */
export function UsagePage() {
  return (
    <PlaceholderPage title="Usage" description="Credits and cloud spend over time." icon={ChartColumnIcon} />
  );
}
