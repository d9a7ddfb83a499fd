import { Controller } from 'react-hook-form';

import { FormAlert } from '@/components/form-alert';
import { FormField } from '@/components/form-field';
import { SubmitButton } from '@/components/submit-button';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { useProfileUpdateMutation } from '@/data/user/profile-update-mutation';
import { type ProfileValues, profileSchema } from '@/features/profile/schemas';
import { isApiError } from '@/lib/api/errors';
import { setServerFieldErrors, useZodForm } from '@/lib/forms';
import { useSignedIn } from '@/lib/signed-in';

const FIELDS = ['fullName', 'preferredName', 'title', 'company', 'workEmail', 'phoneNumber'] as const;

/** The profile's Edit dialog: every field optional, the email required only with a usable password. */
export function EditProfileDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { user } = useSignedIn();
  const update = useProfileUpdateMutation();
  const current: ProfileValues = {
    fullName: user.fullName,
    preferredName: user.preferredName,
    title: user.profile.title,
    company: user.profile.company,
    workEmail: user.profile.workEmail,
    phoneNumber: user.profile.phoneNumber,
    canContact: user.profile.canContact,
  };
  const form = useZodForm(profileSchema(user.hasUsablePassword), { values: current });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit((values) =>
    update.mutate(
      {
        full_name: values.fullName,
        preferred_name: values.preferredName,
        title: values.title,
        company: values.company,
        work_email: values.workEmail,
        phone_number: values.phoneNumber,
        can_contact: values.canContact,
      },
      {
        onSuccess: () => onOpenChange(false),
        onError: (error) => setServerFieldErrors(form.setError, error, FIELDS),
      },
    ),
  );
  const formError =
    update.isError && !(isApiError(update.error) && Object.keys(update.error.fields).length > 0)
      ? 'An unknown error occurred.'
      : null;

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) update.reset();
        onOpenChange(next);
      }}
    >
      <DialogContent className="sm:max-w-lg">
        <form noValidate onSubmit={onSubmit} className="grid gap-4">
          <DialogHeader>
            <DialogTitle>Edit profile</DialogTitle>
            <DialogDescription>
              All fields are optional{user.hasUsablePassword ? ' except your email' : ''}.
            </DialogDescription>
          </DialogHeader>
          <FormAlert>{formError}</FormAlert>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField label="Full name" error={errors.fullName?.message}>
              <Input autoComplete="name" {...form.register('fullName')} />
            </FormField>
            <FormField label="Preferred name" error={errors.preferredName?.message}>
              <Input {...form.register('preferredName')} />
            </FormField>
            <FormField label="Title" error={errors.title?.message}>
              <Input autoComplete="organization-title" {...form.register('title')} />
            </FormField>
            <FormField label="Company" error={errors.company?.message}>
              <Input autoComplete="organization" {...form.register('company')} />
            </FormField>
            <FormField
              label={user.hasUsablePassword ? 'Email' : 'Work Email'}
              error={errors.workEmail?.message}
            >
              <Input type="email" autoComplete="email" {...form.register('workEmail')} />
            </FormField>
            <FormField label="Phone number" error={errors.phoneNumber?.message}>
              <Input type="tel" autoComplete="tel" {...form.register('phoneNumber')} />
            </FormField>
          </div>
          <div className="flex items-center gap-2">
            <Controller
              control={form.control}
              name="canContact"
              render={({ field }) => (
                <Checkbox
                  id="profile-can-contact"
                  checked={field.value}
                  onCheckedChange={(checked) => field.onChange(checked === true)}
                />
              )}
            />
            <Label htmlFor="profile-can-contact" className="font-normal">
              Cumulus may contact me about my account and new features
            </Label>
          </div>
          <DialogFooter>
            <Button type="button" variant="ghost" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <SubmitButton pending={update.isPending} className="w-auto">
              Save
            </SubmitButton>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
