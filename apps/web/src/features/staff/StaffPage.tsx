import { ShieldIcon } from 'lucide-react';

import { PlaceholderPage } from '@/components/placeholder-page';

/** Placeholder until its capability lands; replace this page, keep the route. */
export function StaffPage() {
  return <PlaceholderPage title="Staff" description="Staff tools." icon={ShieldIcon} />;
}
