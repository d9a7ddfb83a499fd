import { CircleCheckIcon } from 'lucide-react';
import * as React from 'react';

import { FormAlert } from '@/components/form-alert';
import { FormField } from '@/components/form-field';
import { SubmitButton } from '@/components/submit-button';
import { Input } from '@/components/ui/input';
import { usePasswordChangeMutation } from '@/data/auth/password-change-mutation';
import { passwordChangeSchema } from '@/features/profile/schemas';
import { SectionCard } from '@/features/profile/sections/section-card';
import { isApiError } from '@/lib/api/errors';
import { session } from '@/lib/api/session';
import { setServerFieldErrors, useZodForm } from '@/lib/forms';
import { PASSWORD_REQUIREMENTS } from '@/lib/rules';

/** After a change the server ends every session; the user signs in again after 2 s. */
export const PASSWORD_CHANGED_REDIRECT_MS = 2_000;
const FIELDS = ['newPassword1', 'newPassword2'] as const;

/** Password (only for users with a usable password). */
export function PasswordSection() {
  const change = usePasswordChangeMutation();
  const form = useZodForm(passwordChangeSchema, { defaultValues: { newPassword1: '', newPassword2: '' } });
  const { errors } = form.formState;

  React.useEffect(() => {
    if (!change.isSuccess) return;
    const timer = window.setTimeout(() => session.clear({ loggedOut: true }), PASSWORD_CHANGED_REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [change.isSuccess]);

  const onSubmit = form.handleSubmit(({ newPassword1, newPassword2 }) =>
    change.mutate(
      { new_password1: newPassword1, new_password2: newPassword2 },
      { onError: (error) => setServerFieldErrors(form.setError, error, FIELDS) },
    ),
  );
  const nonField = isApiError(change.error) ? change.error.nonFieldErrors : [];
  const unknown = change.isError && !isApiError(change.error) ? 'An unknown error occurred.' : null;

  return (
    <SectionCard id="password" title="Password" description={PASSWORD_REQUIREMENTS}>
      {change.isSuccess ? (
        <p role="status" className="flex items-center gap-2 text-sm">
          <CircleCheckIcon className="text-success size-4" aria-hidden="true" />
          New password has been saved. Sign in again with it…
        </p>
      ) : (
        <form noValidate onSubmit={onSubmit} className="grid max-w-md gap-4">
          {nonField.length > 0 ? (
            <div role="alert" className="grid gap-1">
              <h3 className="text-destructive text-sm font-medium">Reset Email</h3>
              <p className="text-destructive/90 text-sm">{nonField.join(', ')}</p>
            </div>
          ) : null}
          <FormAlert>{unknown}</FormAlert>
          <FormField label="New password" error={errors.newPassword1?.message}>
            <Input type="password" autoComplete="new-password" {...form.register('newPassword1')} />
          </FormField>
          <FormField label="Confirm new password" error={errors.newPassword2?.message}>
            <Input type="password" autoComplete="new-password" {...form.register('newPassword2')} />
          </FormField>
          <SubmitButton pending={change.isPending} className="w-fit">
            Change password
          </SubmitButton>
        </form>
      )}
    </SectionCard>
  );
}
