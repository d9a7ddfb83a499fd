import { Banner } from '@/components/banner';
import type { CheckoutReturn } from '@/features/billing/billing-account';

/** What Stripe's return to the Billing page means (`checkout=success|cancelled`), until dismissed. */
export function CheckoutNotice({
  checkout,
  upgraded,
  onDismiss,
}: {
  checkout: CheckoutReturn;
  /** The organization already pays by card (Stripe's confirmation has arrived). */
  upgraded: boolean;
  onDismiss: () => void;
}) {
  if (checkout === 'cancelled')
    return (
      <Banner tone="warning" title="Checkout cancelled" onDismiss={onDismiss}>
        Nothing was charged and your plan is unchanged.
      </Banner>
    );
  return (
    <Banner
      tone="info"
      title={upgraded ? 'Thank you: you are on the Professional plan' : 'Thank you: payment received'}
      onDismiss={onDismiss}
    >
      {upgraded
        ? 'Your card is on file and the Professional plan applies now.'
        : 'Your plan changes to Professional as soon as Stripe confirms the payment; this page updates by itself.'}
    </Banner>
  );
}
