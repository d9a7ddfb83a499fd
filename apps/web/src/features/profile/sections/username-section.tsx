import * as React from 'react';

import { FormField } from '@/components/form-field';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { useUserUpdateMutation } from '@/data/user/user-update-mutation';
import { usernameSchema } from '@/features/profile/schemas';
import { SectionCard } from '@/features/profile/sections/section-card';
import { isApiError } from '@/lib/api/errors';
import { useZodForm } from '@/lib/forms';
import { SLUG_MESSAGE } from '@/lib/rules';
import { useSignedIn } from '@/lib/signed-in';

/** The spec's username answers: 409 taken, the slug rule, else unknown. */
export function usernameError(error: unknown): string {
  if (isApiError(error)) {
    if (error.kind === 'conflict') return 'That username already exists.';
    const messages = error.fieldErrors('username');
    if (messages.includes(SLUG_MESSAGE)) return SLUG_MESSAGE;
  }
  return 'An unknown error occurred.';
}

/** Username: shown, then editable (none, editing, submitting, error). */
export function UsernameSection() {
  const { user } = useSignedIn();
  const update = useUserUpdateMutation();
  const [editing, setEditing] = React.useState(false);
  const form = useZodForm(usernameSchema, { defaultValues: { username: user.username } });
  const error =
    form.formState.errors.username?.message ?? (update.isError ? usernameError(update.error) : null);

  const onSubmit = form.handleSubmit(({ username }) =>
    update.mutate({ username }, { onSuccess: () => setEditing(false) }),
  );

  return (
    <SectionCard
      id="username"
      title="Username"
      description="Your handle across Cumulus, in URLs and the CLI."
    >
      {editing ? (
        <form noValidate onSubmit={onSubmit} className="flex max-w-md flex-wrap items-start gap-2">
          <FormField label="Username" error={error} className="min-w-56 flex-1">
            <Input autoFocus autoComplete="username" {...form.register('username')} />
          </FormField>
          <div className="mt-[1.375rem] flex gap-2">
            <Button type="submit" disabled={update.isPending}>
              {update.isPending ? 'Saving…' : 'Save'}
            </Button>
            <Button
              type="button"
              variant="ghost"
              onClick={() => {
                setEditing(false);
                update.reset();
                form.reset({ username: user.username });
              }}
            >
              Cancel
            </Button>
          </div>
        </form>
      ) : (
        <div className="flex items-center justify-between gap-4">
          <code className="font-mono text-sm">{user.username}</code>
          <Button
            variant="outline"
            size="sm"
            onClick={() => {
              form.reset({ username: user.username });
              setEditing(true);
            }}
          >
            Edit
          </Button>
        </div>
      )}
    </SectionCard>
  );
}
