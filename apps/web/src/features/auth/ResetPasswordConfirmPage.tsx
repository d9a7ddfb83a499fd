import { CircleCheckIcon } from 'lucide-react';
import { Link, useParams } from 'react-router';

import { AuthCard } from '@/components/auth-card';
import { FormAlert } from '@/components/form-alert';
import { FormField } from '@/components/form-field';
import { SubmitButton } from '@/components/submit-button';
import { Input } from '@/components/ui/input';
import { usePasswordResetConfirmMutation } from '@/data/auth/password-reset-confirm-mutation';
import { resetFailure } from '@/features/auth/messages';
import { resetConfirmSchema } from '@/features/auth/schemas';
import { useRedirectAfter } from '@/features/auth/use-redirect-after';
import { isApiError } from '@/lib/api/errors';
import { setServerFieldErrors, useZodForm } from '@/lib/forms';
import { paths } from '@/lib/paths';
import { PASSWORD_REQUIREMENTS } from '@/lib/rules';

export const RESET_REDIRECT_MS = 3_000;
const PASSWORD_FIELDS = ['newPassword1', 'newPassword2'] as const;

/** Reset confirm at reset-password/key/{uid}/{token}: two passwords; login after 3 s. */
export function ResetPasswordConfirmPage() {
  const { uid = '', token = '' } = useParams();
  const confirm = usePasswordResetConfirmMutation();
  // Checked when a field is left, then as it changes (so an error clears while typing, not on the click).
  const form = useZodForm(resetConfirmSchema, {
    mode: 'onTouched',
    defaultValues: { newPassword1: '', newPassword2: '' },
  });
  const { errors } = form.formState;
  // Field errors stay on the form; anything else (bad link, unknown) replaces it.
  const failure = confirm.isError && !hasPasswordErrors(confirm.error);
  useRedirectAfter(confirm.isSuccess, `${paths.login}?open=true`, RESET_REDIRECT_MS);

  const onSubmit = form.handleSubmit(({ newPassword1, newPassword2 }) =>
    confirm.mutate(
      { uid, token, new_password1: newPassword1, new_password2: newPassword2 },
      { onError: (error) => setServerFieldErrors(form.setError, error, PASSWORD_FIELDS) },
    ),
  );

  if (confirm.isSuccess) {
    return (
      <AuthCard title="Password Reset Confirmed">
        <div role="status" className="flex items-start gap-3 text-sm">
          <CircleCheckIcon className="text-success size-5 shrink-0" aria-hidden="true" />
          <p className="text-muted-foreground">Your password has been changed. Taking you to sign in…</p>
        </div>
      </AuthCard>
    );
  }
  if (failure) {
    return (
      <AuthCard
        title="Reset Email"
        footer={
          <Link to={paths.forgotPassword} className="hover:text-foreground">
            Request a new reset link
          </Link>
        }
      >
        <FormAlert>{resetFailure(confirm.error)}</FormAlert>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Choose a new password" pageTitle="Reset Password" description={PASSWORD_REQUIREMENTS}>
      <form noValidate onSubmit={onSubmit} className="grid gap-4">
        <FormField label="New password" error={errors.newPassword1?.message}>
          <Input type="password" autoComplete="new-password" autoFocus {...form.register('newPassword1')} />
        </FormField>
        <FormField label="Confirm new password" error={errors.newPassword2?.message}>
          <Input type="password" autoComplete="new-password" {...form.register('newPassword2')} />
        </FormField>
        <SubmitButton pending={confirm.isPending}>Reset password</SubmitButton>
      </form>
    </AuthCard>
  );
}

function hasPasswordErrors(error: unknown): boolean {
  return isApiError(error) && PASSWORD_FIELDS.some((field) => error.fieldErrors(field).length > 0);
}
