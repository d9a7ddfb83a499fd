import { Building2Icon, SearchXIcon } from 'lucide-react';
import * as React from 'react';

import { Banner } from '@/components/banner';
import { EmptyState } from '@/components/empty-state';
import { ErrorState } from '@/components/error-state';
import { LoadingSkeleton } from '@/components/loading-skeleton';
import { Page, PageHeader } from '@/components/page';
import { useOrganizationQuery } from '@/data/organizations/organization-query';
import { type Plan, usePlanQuery } from '@/data/pricing/plan-query';
import { useBillingSearch } from '@/features/billing/billing-account';
import { BillingEvents } from '@/features/billing/billing-events';
import { CheckoutNotice } from '@/features/billing/checkout-notice';
import { CreditsCard } from '@/features/billing/credits-card';
import { useIsOrganizationAdmin } from '@/features/billing/current-billing-scope';
import { LimitsCard } from '@/features/billing/limits-card';
import { OrganizationSelect } from '@/features/billing/organization-select';
import { PaymentSection } from '@/features/billing/payment-section';
import { readsPayments } from '@/features/billing/permissions';
import { PlanCard } from '@/features/billing/plan-card';
import { StaffPlanCard } from '@/features/billing/staff-plan-card';
import { WorkspaceCreditsCard } from '@/features/billing/workspace-credits-card';
import { errorMessage } from '@/lib/api/errors';
import { usePageMeta } from '@/lib/page-meta';
import { useSignedIn } from '@/lib/signed-in';
import { STORAGE_KEYS, writeStored } from '@/lib/storage';
import { useWorkspace } from '@/lib/workspace';

/** While Stripe's confirmation of a checkout is awaited, the plan is read again this often. */
const CHECKOUT_POLL_MS = 3_000;

export const NOT_CONFIGURED = {
  title: 'Billing is not configured on this server',
  message:
    'This server takes no payments, so plans cannot be bought here. Credit and spend limits still apply, and admins can change them below.',
};

/** The organization's name: from the user's memberships, else (staff) from the organization itself. */
function useOrganizationName(organizationId: number | null): string | null {
  const { organizationMemberships } = useSignedIn();
  const own = organizationMemberships.find((m) => m.organizationId === organizationId)?.organization.name;
  const details = useOrganizationQuery({ organizationId: own ? null : organizationId });
  return own ?? details.data?.name ?? null;
}

/**
 * Billing (`/billing?account=`): an organization's plan and tier, this month's credits and spend,
 * its limits (editable by its admins; staff edit the whole plan), plan changes (Stripe Checkout,
 * downgrade, Enterprise), and for admins the card, invoices and billing events.
 */
export function BillingPage() {
  usePageMeta({ title: 'Billing', breadcrumbs: [{ label: 'Billing' }] });
  // Arrived: the upgrade link's choice (billing-redirect, before signing in) is done with.
  React.useEffect(() => writeStored(STORAGE_KEYS.upgrade, null), []);
  const { account, checkout, change } = useBillingSearch();
  const organizationId = account.organizationId;
  const name = useOrganizationName(organizationId);
  const plan = usePlanQuery(
    { organizationId },
    {
      refetchInterval: (query) =>
        checkout === 'success' && query.state.data?.billingMethod !== 'stripe' ? CHECKOUT_POLL_MS : false,
    },
  );

  const header = (
    <PageHeader
      title="Billing"
      description={name ? `Plan, credits and payment of ${name}.` : 'Plan, credits and payment.'}
      actions={
        organizationId === null ? null : (
          <OrganizationSelect
            organizationId={organizationId}
            name={name ?? `Organization ${organizationId}`}
            onChange={(id) => change({ organizationId: id })}
          />
        )
      }
    />
  );

  if (organizationId === null)
    return (
      <Page>
        {header}
        {account.notFound ? (
          <EmptyState
            icon={SearchXIcon}
            title={account.notFound}
            description="Pick one of your organizations above, or check the link."
          />
        ) : (
          <EmptyState
            icon={Building2Icon}
            title="No organization"
            description="You do not belong to an organization yet, so there is no plan to show."
          />
        )}
      </Page>
    );

  return (
    <Page>
      {header}
      {checkout ? (
        <CheckoutNotice
          checkout={checkout}
          upgraded={plan.data?.billingMethod === 'stripe'}
          onDismiss={() => change({ checkout: null })}
        />
      ) : null}
      {plan.error ? (
        <ErrorState
          title="Could not load the plan"
          message={errorMessage(plan.error)}
          onRetry={() => void plan.refetch()}
          retrying={plan.isFetching}
        />
      ) : !plan.data ? (
        <div aria-busy="true" className="flex flex-col gap-4">
          <LoadingSkeleton variant="cards" />
          <LoadingSkeleton variant="table" columns={3} rows={3} />
        </div>
      ) : (
        <BillingView plan={plan.data} />
      )}
    </Page>
  );
}

function BillingView({ plan }: { plan: Plan }) {
  const organizationId = plan.organizationId;
  const { workspace: current, workspaces } = useWorkspace();
  const isOrganizationAdmin = useIsOrganizationAdmin(organizationId);
  const workspace =
    current?.organization.id === organizationId
      ? current
      : workspaces.find((candidate) => candidate.organization.id === organizationId);
  const admin = readsPayments(plan);
  return (
    <>
      {plan.billingConfigured ? null : (
        <Banner tone="info" title={NOT_CONFIGURED.title}>
          {NOT_CONFIGURED.message}
        </Banner>
      )}
      <div className="grid items-start gap-4 lg:grid-cols-2">
        <PlanCard plan={plan} />
        <div className="grid gap-4">
          <CreditsCard organizationId={organizationId} />
          {workspace ? (
            <WorkspaceCreditsCard workspace={workspace} canEdit={workspace.isAdmin || isOrganizationAdmin} />
          ) : null}
        </div>
      </div>
      <LimitsCard plan={plan} />
      {plan.canUpdateStaff ? <StaffPlanCard plan={plan} /> : null}
      {admin && plan.billingConfigured ? <PaymentSection organizationId={organizationId} /> : null}
      {admin ? <BillingEvents organizationId={organizationId} /> : null}
    </>
  );
}
