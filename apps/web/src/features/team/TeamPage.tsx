import { UsersIcon } from 'lucide-react';

import { PlaceholderPage } from '@/components/placeholder-page';

/** Placeholder until its capability lands; replace this page, keep the route. */
export function TeamPage() {
  return (
    <PlaceholderPage title="Team" description="Organizations, workspaces and members." icon={UsersIcon} />
  );
}
