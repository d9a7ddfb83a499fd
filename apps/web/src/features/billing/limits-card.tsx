import * as React from 'react';
import { Controller } from 'react-hook-form';
import { toast } from 'sonner';

import { FormField } from '@/components/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { WhyDisabled } from '@/components/why-disabled';
import { useLimitsUpdateMutation } from '@/data/pricing/limits-update-mutation';
import type { Plan } from '@/data/pricing/plan-query';
import { BillingCard } from '@/features/billing/billing-card';
import { FormFooter } from '@/features/billing/form-footer';
import { limitsBlocked } from '@/features/billing/permissions';
import { type LimitsValues, limitsSchema } from '@/features/billing/schemas';
import { serverMessage } from '@/lib/api/errors';
import { setServerFieldErrors, useZodForm } from '@/lib/forms';

const LIMIT_FIELDS = [
  {
    name: 'organizationCreditLimit',
    label: 'Organization credit limit',
    description: 'Credits a month, across every workspace.',
    inputMode: 'numeric',
  },
  {
    name: 'programDollarsSpendLimit',
    label: 'Monthly spend limit (USD)',
    description: 'Dollars a month; no new clusters once reached.',
    inputMode: 'decimal',
  },
] as const;

const text = (value: number | null) => (value === null ? '' : String(value));

function valuesOf(plan: Plan): LimitsValues {
  return {
    organizationCreditLimit: text(plan.organizationCreditLimit),
    programDollarsSpendLimit: text(plan.programDollarsSpendLimit),
    spendLimitShouldStopInstances: plan.spendLimitShouldStopInstances,
  };
}

/**
 * The organization's monthly credit limit and dollar spend limit (empty: no limit), and whether
 * reaching the spend limit stops running clusters. Organization admins and staff edit them; others
 * see them with the reason they cannot.
 */
export function LimitsCard({ plan }: { plan: Plan }) {
  const blocked = limitsBlocked(plan);
  const save = useLimitsUpdateMutation();
  const form = useZodForm(limitsSchema, { mode: 'onChange', defaultValues: valuesOf(plan) });
  const { reset } = form;
  const saved = valuesOf(plan);
  const savedKey = JSON.stringify(saved);
  // A saved (or elsewhere changed) plan becomes the form's new starting point.
  // biome-ignore lint/correctness/useExhaustiveDependencies: savedKey stands for `saved`.
  React.useEffect(() => reset(saved), [savedKey, reset]);
  const errors = form.formState.errors;

  const onSubmit = form.handleSubmit((values) => {
    const body = {
      ...(values.organizationCreditLimit !== plan.organizationCreditLimit && {
        organization_credit_limit: values.organizationCreditLimit,
      }),
      ...(values.programDollarsSpendLimit !== plan.programDollarsSpendLimit && {
        program_dollars_spend_limit: values.programDollarsSpendLimit,
      }),
      ...(values.spendLimitShouldStopInstances !== plan.spendLimitShouldStopInstances && {
        spend_limit_should_stop_instances: values.spendLimitShouldStopInstances,
      }),
    };
    save.mutate(
      { organizationId: plan.organizationId, body },
      {
        onSuccess: () => toast.success('Limits saved'),
        onError: (error) => {
          const fields = LIMIT_FIELDS.map((field) => field.name);
          if (!setServerFieldErrors(form.setError, error, fields))
            form.setError('root', { type: 'server', message: serverMessage(error) });
        },
      },
    );
  });

  const disabled = blocked !== null;
  return (
    <BillingCard
      title="Limits"
      description="What the organization may use each month. Clusters over a limit are stopped and new ones refused; empty means no limit."
    >
      <form onSubmit={onSubmit} noValidate className="grid gap-4">
        <div className="grid gap-4 sm:grid-cols-2">
          {LIMIT_FIELDS.map(({ name, label, description, inputMode }) => (
            <WhyDisabled key={name} reason={blocked} className="grid">
              <FormField label={label} description={description} error={errors[name]?.message}>
                <Input
                  inputMode={inputMode}
                  placeholder="No limit"
                  disabled={disabled}
                  className="tabular-nums"
                  {...form.register(name)}
                />
              </FormField>
            </WhyDisabled>
          ))}
        </div>
        <div className="flex items-center gap-3">
          <Controller
            control={form.control}
            name="spendLimitShouldStopInstances"
            render={({ field }) => (
              <WhyDisabled reason={blocked}>
                <Switch
                  id="spend-limit-stops"
                  checked={field.value}
                  onCheckedChange={field.onChange}
                  disabled={disabled}
                />
              </WhyDisabled>
            )}
          />
          <Label htmlFor="spend-limit-stops" className="font-normal">
            Stop running clusters when the spend limit is reached
          </Label>
        </div>
        {disabled ? null : (
          <FormFooter error={errors.root?.message} pending={save.isPending}>
            Save limits
          </FormFooter>
        )}
      </form>
    </BillingCard>
  );
}
