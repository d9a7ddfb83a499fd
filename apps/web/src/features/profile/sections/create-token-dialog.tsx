import { TriangleAlertIcon } from 'lucide-react';

import { CopyButton } from '@/components/copy-button';
import { FormAlert } from '@/components/form-alert';
import { FormField } from '@/components/form-field';
import { SubmitButton } from '@/components/submit-button';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { useApiTokenCreateMutation } from '@/data/api-tokens/api-token-create-mutation';
import { tokenSchema } from '@/features/profile/schemas';
import { errorMessage, isApiError } from '@/lib/api/errors';
import { useZodForm } from '@/lib/forms';

function creationError(error: unknown): string {
  if (isApiError(error)) {
    return error.fieldErrors('expiry')[0] ?? error.fieldErrors('label')[0] ?? error.detail ?? error.message;
  }
  return errorMessage(error);
}

/**
 * Token creation: label and days to expiration (default never). On success the secret is shown
 * once, with a copy button; closing forgets it.
 */
export function CreateTokenDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const create = useApiTokenCreateMutation();
  const form = useZodForm(tokenSchema, { defaultValues: { label: '', days: '' } });
  const { errors } = form.formState;

  function close(next: boolean) {
    if (next) return onOpenChange(true);
    onOpenChange(false);
    // After the closing animation, so the secret does not flash back to the form.
    window.setTimeout(() => {
      create.reset();
      form.reset();
    }, 200);
  }

  const onSubmit = form.handleSubmit(({ label, days }) =>
    create.mutate({ label, days: days === '' ? undefined : Number(days) }),
  );

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent className="sm:max-w-md">
        {create.isSuccess ? (
          <>
            <DialogHeader>
              <DialogTitle>API token created</DialogTitle>
              <DialogDescription>
                Copy your token now. For your security it is shown only once and cannot be retrieved later.
              </DialogDescription>
            </DialogHeader>
            <div className="bg-muted/50 flex items-center gap-2 rounded-lg border p-2 pl-3">
              <code data-testid="new-token" className="min-w-0 flex-1 font-mono text-xs break-all">
                {create.data.token}
              </code>
              <CopyButton value={create.data.token} label="Copy token" />
            </div>
            <p className="text-muted-foreground flex items-start gap-2 text-xs">
              <TriangleAlertIcon className="text-warning mt-px size-3.5 shrink-0" aria-hidden="true" />
              <span>
                Send it as <code className="font-mono">Authorization: ApiToken &lt;token&gt;</code>, or set it
                as <code className="font-mono">CUMULUS_API_TOKEN</code> for the Python client.
              </span>
            </p>
            <DialogFooter>
              <Button onClick={() => close(false)}>Done</Button>
            </DialogFooter>
          </>
        ) : (
          <form noValidate onSubmit={onSubmit} className="grid gap-4">
            <DialogHeader>
              <DialogTitle>Create API token</DialogTitle>
              <DialogDescription>A long-lived token for scripts, CI and the Python client.</DialogDescription>
            </DialogHeader>
            <FormAlert>{create.isError ? creationError(create.error) : null}</FormAlert>
            <FormField label="Label (optional)" error={errors.label?.message}>
              <Input placeholder="laptop, CI..." autoFocus {...form.register('label')} />
            </FormField>
            <FormField
              label="Days to expiration (optional)"
              description="Leave empty for a token that never expires."
              error={errors.days?.message}
            >
              <Input inputMode="numeric" placeholder="Never" {...form.register('days')} />
            </FormField>
            <DialogFooter>
              <Button type="button" variant="ghost" onClick={() => close(false)}>
                Cancel
              </Button>
              <SubmitButton pending={create.isPending} className="w-auto">
                Create token
              </SubmitButton>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
