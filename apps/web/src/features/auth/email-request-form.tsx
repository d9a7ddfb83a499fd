import type { UseMutationResult } from '@tanstack/react-query';

import { FormAlert } from '@/components/form-alert';
import { FormField } from '@/components/form-field';
import { SubmitButton } from '@/components/submit-button';
import { Input } from '@/components/ui/input';
import { recoveryEmailSchema } from '@/features/auth/schemas';
import { errorMessage, isApiError } from '@/lib/api/errors';
import { useZodForm } from '@/lib/forms';

/** What a failed email request says: the server's own words when it gave any. */
export function requestErrorText(error: unknown): string {
  if (isApiError(error)) {
    return error.fieldErrors('email')[0] ?? error.nonFieldErrors[0] ?? error.detail ?? error.message;
  }
  return errorMessage(error);
}

type EmailRequestFormProps = {
  mutation: UseMutationResult<{ detail: string }, Error, string>;
  submitLabel: string;
  defaultEmail?: string;
};

/** One email field and a submit button: resend verification, retrieve username, forgot password. */
export function EmailRequestForm({ mutation, submitLabel, defaultEmail = '' }: EmailRequestFormProps) {
  const { register, handleSubmit, formState } = useZodForm(recoveryEmailSchema, {
    defaultValues: { email: defaultEmail },
  });
  return (
    <form noValidate onSubmit={handleSubmit(({ email }) => mutation.mutate(email))} className="grid gap-4">
      <FormAlert>{mutation.isError ? requestErrorText(mutation.error) : null}</FormAlert>
      <FormField label="Email" error={formState.errors.email?.message}>
        <Input type="email" autoComplete="email" autoFocus {...register('email')} />
      </FormField>
      <SubmitButton pending={mutation.isPending}>{submitLabel}</SubmitButton>
    </form>
  );
}
