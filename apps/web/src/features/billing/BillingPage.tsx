import { CreditCardIcon } from 'lucide-react';

import { PlaceholderPage } from '@/components/placeholder-page';

/** Placeholder until its capability lands; replace this page, keep the route. */
export function BillingPage() {
  return <PlaceholderPage title="Billing" description="Plan, credits and payment." icon={CreditCardIcon} />;
}
