import * as React from 'react';
import { Controller } from 'react-hook-form';
import { toast } from 'sonner';

import { FormField } from '@/components/form-field';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import type { Plan } from '@/data/pricing/plan-query';
import { useStaffUpdateMutation } from '@/data/pricing/staff-update-mutation';
import { BillingCard } from '@/features/billing/billing-card';
import { FormFooter } from '@/features/billing/form-footer';
import { TIER_NAMES } from '@/features/billing/plans';
import { type StaffPlanValues, staffPlanSchema } from '@/features/billing/schemas';
import { serverMessage } from '@/lib/api/errors';
import { setServerFieldErrors, useZodForm } from '@/lib/forms';

const text = (value: number | null) => (value === null ? '' : String(value));
/** The empty billing method is `none` in the form (a select option cannot be empty) and '' on the wire. */
const BILLING_METHODS = {
  none: 'None',
  stripe: 'Card (Stripe)',
  aws: 'AWS Marketplace',
  invoice: 'Invoice',
} as const;

function valuesOf(plan: Plan): StaffPlanValues {
  return {
    tier: plan.tier,
    billingMethod: (plan.billingMethod && plan.billingMethod in BILLING_METHODS
      ? plan.billingMethod
      : 'none') as StaffPlanValues['billingMethod'],
    creditAllotment: String(plan.creditAllotment),
    memberLimit: text(plan.memberLimit),
    seatLimit: text(plan.seatLimit),
    workspaceLimit: text(plan.workspaceLimit),
    nodeLimit: text(plan.nodeLimit),
    coreLimitMembers: text(plan.coreLimitMembers),
    spotUsageLimit: text(plan.spotUsageLimit),
    armUsageLimit: text(plan.armUsageLimit),
    canUseCustomNetworking: plan.canUseCustomNetworking ? 'yes' : 'no',
    canUsePrivatePypi: plan.canUsePrivatePypi ? 'yes' : 'no',
    billingPeriods: String(plan.billingPeriods),
    cumulusCreditValue: String(plan.cumulusCreditValue),
    trialExpiration: plan.trialExpiration ? plan.trialExpiration.slice(0, 10) : '',
  };
}

const ALLOWED = { yes: 'Allowed', no: 'Not allowed' } as const;
const SELECTS = [
  { name: 'tier', label: 'Tier', options: TIER_NAMES },
  { name: 'billingMethod', label: 'Billing method', options: BILLING_METHODS },
  { name: 'canUseCustomNetworking', label: 'Custom networking', options: ALLOWED },
  { name: 'canUsePrivatePypi', label: 'Private package index', options: ALLOWED },
] as const;

const COUNTS = [
  ['memberLimit', 'member_limit', 'Member limit'],
  ['seatLimit', 'seat_limit', 'Seat limit'],
  ['workspaceLimit', 'workspace_limit', 'Workspace limit'],
  ['nodeLimit', 'node_limit', 'Node limit'],
  ['coreLimitMembers', 'core_limit_members', 'Cores per member'],
  ['spotUsageLimit', 'spot_usage_limit', 'Spot instances'],
  ['armUsageLimit', 'arm_usage_limit', 'ARM instances'],
] as const;

/** Staff set every field of the plan (`pricing/update-staff`): tier, billing, allotment, team limits, trial. */
export function StaffPlanCard({ plan }: { plan: Plan }) {
  const save = useStaffUpdateMutation();
  const saved = valuesOf(plan);
  const savedKey = JSON.stringify(saved);
  const form = useZodForm(staffPlanSchema, { mode: 'onChange', defaultValues: saved });
  const { reset } = form;
  // biome-ignore lint/correctness/useExhaustiveDependencies: savedKey stands for `saved`.
  React.useEffect(() => reset(saved), [savedKey, reset]);
  const errors = form.formState.errors;

  const onSubmit = form.handleSubmit((values) => {
    const trial = values.trialExpiration ? `${values.trialExpiration}T00:00:00+00:00` : null;
    const body = {
      ...(values.tier !== plan.tier && { tier: values.tier }),
      ...(values.billingMethod !== saved.billingMethod && {
        billing_method: values.billingMethod === 'none' ? ('' as const) : values.billingMethod,
      }),
      ...(values.canUseCustomNetworking !== saved.canUseCustomNetworking && {
        can_use_custom_networking: values.canUseCustomNetworking === 'yes',
      }),
      ...(values.canUsePrivatePypi !== saved.canUsePrivatePypi && {
        can_use_private_pypi: values.canUsePrivatePypi === 'yes',
      }),
      ...(values.billingPeriods !== plan.billingPeriods && { billing_periods: values.billingPeriods }),
      ...(values.creditAllotment !== plan.creditAllotment && { credit_allotment: values.creditAllotment }),
      ...(values.cumulusCreditValue !== plan.cumulusCreditValue && {
        cumulus_credit_value: values.cumulusCreditValue,
      }),
      ...(values.trialExpiration !== saved.trialExpiration && { trial_expiration: trial }),
      ...Object.fromEntries(
        COUNTS.filter(([key]) => values[key] !== plan[key]).map(([key, wire]) => [wire, values[key]]),
      ),
    };
    save.mutate(
      { organizationId: plan.organizationId, body },
      {
        onSuccess: () => toast.success('Plan saved'),
        onError: (error) => {
          const fields = [
            'tier',
            'billingMethod',
            'creditAllotment',
            'cumulusCreditValue',
            'trialExpiration',
            'canUseCustomNetworking',
            'canUsePrivatePypi',
            'billingPeriods',
            ...COUNTS.map(([key]) => key),
          ] as const;
          if (!setServerFieldErrors(form.setError, error, fields))
            form.setError('root', { type: 'server', message: serverMessage(error) });
        },
      },
    );
  });

  return (
    <BillingCard title="Plan settings (staff)" description="Only Cumulus staff see and change these.">
      <form onSubmit={onSubmit} noValidate className="grid gap-4">
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {SELECTS.map(({ name, label, options }) => (
            <Controller
              key={name}
              control={form.control}
              name={name}
              render={({ field }) => (
                <FormField label={label} error={errors[name]?.message}>
                  <Select value={field.value} onValueChange={field.onChange}>
                    <SelectTrigger className="w-full" aria-label={label}>
                      <SelectValue />
                    </SelectTrigger>
                    <SelectContent>
                      {Object.entries(options).map(([value, text]) => (
                        <SelectItem key={value} value={value}>
                          {text}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                </FormField>
              )}
            />
          ))}
          <FormField label="Credits included a month" error={errors.creditAllotment?.message}>
            <Input inputMode="numeric" className="tabular-nums" {...form.register('creditAllotment')} />
          </FormField>
          {COUNTS.map(([key, , label]) => (
            <FormField key={key} label={label} error={errors[key]?.message}>
              <Input
                inputMode="numeric"
                placeholder="No limit"
                className="tabular-nums"
                {...form.register(key)}
              />
            </FormField>
          ))}
          <FormField label="Credit value (USD)" error={errors.cumulusCreditValue?.message}>
            <Input inputMode="decimal" className="tabular-nums" {...form.register('cumulusCreditValue')} />
          </FormField>
          <FormField label="Months per billing period" error={errors.billingPeriods?.message}>
            <Input inputMode="numeric" className="tabular-nums" {...form.register('billingPeriods')} />
          </FormField>
          <FormField label="Trial ends" error={errors.trialExpiration?.message}>
            <Input type="date" {...form.register('trialExpiration')} />
          </FormField>
        </div>
        <FormFooter error={errors.root?.message} pending={save.isPending}>
          Save plan
        </FormFooter>
      </form>
    </BillingCard>
  );
}
