import { UserIcon } from 'lucide-react';

import { PlaceholderPage } from '@/components/placeholder-page';

export function ProfilePage() {
  return <PlaceholderPage title="Profile" icon={UserIcon} />;
}
