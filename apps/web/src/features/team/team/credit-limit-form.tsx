import * as React from 'react';
import { toast } from 'sonner';

import { FieldError } from '@/components/form-field';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { WhyDisabled } from '@/components/why-disabled';
import type { OrganizationWorkspace } from '@/data/organizations/organization-workspaces-query';
import { useWorkspaceCreditLimitMutation } from '@/data/organizations/workspace-credit-limit-mutation';
import { creditLimitSchema } from '@/features/team/schemas';
import { isApiError } from '@/lib/api/errors';
import { useZodForm } from '@/lib/forms';
import { TOOLTIPS } from '@/lib/team/permissions';

/** The server's own words for a failed save (section 8: "Credit limit save error shows the server message"). */
export function serverMessage(error: unknown, field?: string): string {
  if (isApiError(error)) {
    const onField = field ? error.fieldErrors(field)[0] : undefined;
    return onField ?? error.detail ?? error.nonFieldErrors[0] ?? error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

/** The workspace-wide monthly credit limit, with Save; workspace and organization admins only. */
export function CreditLimitForm({
  workspace,
  organizationId,
  canEdit,
}: {
  workspace: OrganizationWorkspace;
  organizationId: number;
  canEdit: boolean;
}) {
  const save = useWorkspaceCreditLimitMutation();
  const saved = workspace.creditLimit === null ? '' : String(workspace.creditLimit);
  const form = useZodForm(creditLimitSchema, { mode: 'onChange', defaultValues: { creditLimit: saved } });
  const { reset } = form;
  // A saved (or elsewhere changed) limit becomes the field's new starting point.
  React.useEffect(() => reset({ creditLimit: saved }), [saved, reset]);
  const error = form.formState.errors.creditLimit?.message;
  const fieldId = `credit-limit-${workspace.id}`;

  const onSubmit = form.handleSubmit(({ creditLimit }) =>
    save.mutate(
      { organizationId, workspaceId: workspace.id, creditLimit },
      {
        onSuccess: () => toast.success(`Credit limit of ${workspace.name} saved`),
        onError: (failure) =>
          form.setError('creditLimit', { type: 'server', message: serverMessage(failure, 'credit_limit') }),
      },
    ),
  );

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-1">
      <label htmlFor={fieldId} className="text-muted-foreground text-xs font-medium">
        Workspace credit limit
      </label>
      <div className="flex items-start gap-2">
        <WhyDisabled reason={canEdit ? null : TOOLTIPS.notWorkspaceAdmin(workspace.name)}>
          <Input
            id={fieldId}
            inputMode="numeric"
            placeholder="No limit"
            disabled={!canEdit}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${fieldId}-error` : undefined}
            className="h-8 w-36 tabular-nums"
            {...form.register('creditLimit')}
          />
        </WhyDisabled>
        {canEdit ? (
          <Button type="submit" size="sm" variant="secondary" disabled={save.isPending}>
            Save
          </Button>
        ) : null}
      </div>
      <FieldError id={`${fieldId}-error`} messages={error} className="max-w-60" />
    </form>
  );
}
