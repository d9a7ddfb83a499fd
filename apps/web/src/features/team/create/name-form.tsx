import { Link } from 'react-router';
import type { z } from 'zod';

import { FormAlert } from '@/components/form-alert';
import { FormField } from '@/components/form-field';
import { SubmitButton } from '@/components/submit-button';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { NAME_HELP, type organizationNameSchema } from '@/features/team/schemas';
import type { useZodForm } from '@/lib/forms';
import { paths } from '@/lib/paths';

type NameForm = ReturnType<typeof useZodForm<typeof organizationNameSchema>>;

type NameFormProps = {
  form: NameForm;
  label: string;
  submitLabel: string;
  pending: boolean;
  formError: string | null;
  onSubmit: (values: z.output<typeof organizationNameSchema>) => void;
};

/** Create Workspace and Create Organization: one name field. */
export function NameForm({ form, label, submitLabel, pending, formError, onSubmit }: NameFormProps) {
  return (
    <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="flex flex-col gap-6">
      <FormAlert>{formError}</FormAlert>
      <FormField label={label} error={form.formState.errors.name?.message} description={NAME_HELP}>
        <Input autoComplete="off" autoFocus {...form.register('name')} />
      </FormField>
      <div className="flex justify-end gap-2 border-t pt-4">
        <Button asChild variant="outline">
          <Link to={paths.team}>Cancel</Link>
        </Button>
        <SubmitButton pending={pending} className="w-auto">
          {submitLabel}
        </SubmitButton>
      </div>
    </form>
  );
}
