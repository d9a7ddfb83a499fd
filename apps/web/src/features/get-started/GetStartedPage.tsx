import { RocketIcon } from 'lucide-react';

import { PlaceholderPage } from '@/components/placeholder-page';

/** Placeholder until its capability lands; replace this page, keep the route. */
export function GetStartedPage() {
  return (
    <PlaceholderPage
      title="Get Started"
      description="Set up Cumulus and run your first cluster."
      icon={RocketIcon}
    />
  );
}
