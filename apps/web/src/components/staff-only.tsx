import { ShieldAlertIcon } from 'lucide-react';
import { Outlet } from 'react-router';

import { EmptyState } from '@/components/empty-state';
import { Page } from '@/components/page';
import { usePageMeta } from '@/lib/page-meta';
import { useSignedIn } from '@/lib/signed-in';

/** What a non-staff reader of a staff page sees, word for word. */
export const STAFF_ONLY_MESSAGE =
  'Sorry, only cumulus admins can view this page. If this is a mistake, please contact cumulus support.';

function StaffOnlyMessage() {
  usePageMeta({ title: 'Staff only' });
  return (
    <Page>
      <EmptyState icon={ShieldAlertIcon} title={STAFF_ONLY_MESSAGE} />
    </Page>
  );
}

/** A layout route for staff-only pages: everyone else sees the spec's message instead. */
export function StaffOnly() {
  const { user } = useSignedIn();
  return user.isStaff ? <Outlet /> : <StaffOnlyMessage />;
}
