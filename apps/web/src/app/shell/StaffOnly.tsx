import { ShieldAlertIcon } from 'lucide-react';
import { Outlet } from 'react-router';

import { usePageMeta } from '@/app/page-meta';
import { useSignedIn } from '@/app/shell/signed-in';
import { EmptyState } from '@/components/empty-state';
import { Page } from '@/components/page';

export const STAFF_ONLY_MESSAGE =
  'Sorry, only Cumulus admins can view this page. If this is a mistake, please contact Cumulus support.';

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
