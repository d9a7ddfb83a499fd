import { PlusIcon, XIcon } from 'lucide-react';
import { Controller, useFieldArray } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';

import { FormAlert } from '@/components/form-alert';
import { FieldError, FormField } from '@/components/form-field';
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
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { useClusterCreateMutation } from '@/data/clusters/cluster-create-mutation';
import { CLOUD_BACKENDS, CloudMachineFields } from '@/features/clusters/dashboard/cloud-machine-fields';
import {
  createClusterBody,
  createClusterSchema,
  defaultValues,
  IDLE_TIMEOUTS,
  MAX_WORKERS,
} from '@/features/clusters/dashboard/create-cluster-form';
import { SoftwarePicker } from '@/features/clusters/dashboard/software-picker';
import { clusterLink } from '@/features/clusters/links';
import { isApiError, serverMessage } from '@/lib/api/errors';
import { setServerFieldErrors, useZodForm } from '@/lib/forms';

/** The fields server errors are shown on; others go to the alert above the form. */
const FORM_FIELDS = ['name', 'workers', 'envName'] as const;

type CreateClusterDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  workspace: { slug: string; name: string; activeBackend?: string };
};

/**
 * Name, workers, idle timeout, software environment and tags; creates the cluster in the current
 * workspace and opens it.
 */
export function CreateClusterDialog({ open, onOpenChange, workspace }: CreateClusterDialogProps) {
  const navigate = useNavigate();
  const create = useClusterCreateMutation();
  const form = useZodForm(createClusterSchema, { defaultValues: defaultValues(workspace.slug) });
  const tags = useFieldArray({ control: form.control, name: 'tags' });
  const { errors } = form.formState;
  const cloudBackend = CLOUD_BACKENDS.find((b) => b === workspace.activeBackend) ?? null;

  function close(next: boolean) {
    onOpenChange(next);
    if (!next) {
      create.reset();
      form.reset(defaultValues(workspace.slug));
    }
  }

  const onSubmit = form.handleSubmit((input) =>
    create.mutate(
      { account: workspace.slug, body: createClusterBody(input) },
      {
        onSuccess: ({ id, existing }) => {
          if (existing) toast.info(`${input.name} is already running in ${workspace.name}; here it is.`);
          else toast.success(`Creating ${input.name}`);
          close(false);
          navigate(clusterLink({ id, account: { slug: workspace.slug } }));
        },
        onError: (error) => setServerFieldErrors(form.setError, error, FORM_FIELDS),
      },
    ),
  );
  const error = create.error;
  const failure =
    error && !(isApiError(error) && FORM_FIELDS.some((field) => error.fieldErrors(field).length > 0))
      ? serverMessage(error)
      : null;

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent className="sm:max-w-lg">
        <form noValidate onSubmit={onSubmit} className="grid gap-5">
          <DialogHeader>
            <DialogTitle>Create cluster</DialogTitle>
            <DialogDescription>
              A Dask scheduler and workers in{' '}
              <span className="text-foreground font-medium">{workspace.name}</span>. It stops by itself once
              idle for the timeout.
            </DialogDescription>
          </DialogHeader>
          <FormAlert>{failure}</FormAlert>
          <FormField label="Name" error={errors.name?.message}>
            <Input
              autoComplete="off"
              spellCheck={false}
              className="font-mono"
              autoFocus
              {...form.register('name')}
            />
          </FormField>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField
              label="Workers"
              description={`From 0 to ${MAX_WORKERS}; one core each.`}
              error={errors.workers?.message}
            >
              <Input inputMode="numeric" {...form.register('workers')} />
            </FormField>
            <Controller
              control={form.control}
              name="idleTimeout"
              render={({ field }) => (
                <FormField
                  id="create-cluster-idle-timeout"
                  label="Idle timeout"
                  description="Stops after this long without work."
                >
                  <Select value={field.value} onValueChange={field.onChange}>
                    <SelectTrigger id="create-cluster-idle-timeout" className="w-full" onBlur={field.onBlur}>
                      <SelectValue />
                    </SelectTrigger>
                    <SelectContent>
                      {IDLE_TIMEOUTS.map((timeout) => (
                        <SelectItem key={timeout} value={timeout}>
                          {timeout}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                </FormField>
              )}
            />
          </div>
          {cloudBackend ? <CloudMachineFields control={form.control} backendType={cloudBackend} /> : null}
          <Controller
            control={form.control}
            name="envName"
            render={({ field }) => (
              <SoftwarePicker
                workspace={workspace.slug}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                error={errors.envName?.message}
              />
            )}
          />
          <fieldset className="grid gap-2">
            <legend className="mb-2 text-sm leading-none font-medium">
              Tags <span className="text-muted-foreground font-normal">(optional)</span>
            </legend>
            {tags.fields.map((row, index) => (
              <div key={row.id} className="grid gap-1">
                <div className="grid grid-cols-[minmax(0,1fr)_auto_minmax(0,1fr)_auto] items-center gap-2">
                  <Label htmlFor={`tag-key-${index}`} className="sr-only">
                    Tag {index + 1} key
                  </Label>
                  <Input
                    id={`tag-key-${index}`}
                    placeholder="key"
                    className="font-mono"
                    aria-invalid={errors.tags?.[index]?.key ? true : undefined}
                    {...form.register(`tags.${index}.key`)}
                  />
                  <span className="text-muted-foreground font-mono" aria-hidden="true">
                    =
                  </span>
                  <Label htmlFor={`tag-value-${index}`} className="sr-only">
                    Tag {index + 1} value
                  </Label>
                  <Input
                    id={`tag-value-${index}`}
                    placeholder="value"
                    className="font-mono"
                    {...form.register(`tags.${index}.value`)}
                  />
                  <Button
                    type="button"
                    variant="ghost"
                    size="icon-sm"
                    aria-label={`Remove tag ${index + 1}`}
                    onClick={() => tags.remove(index)}
                  >
                    <XIcon />
                  </Button>
                </div>
                <FieldError
                  messages={errors.tags?.[index]?.key?.message ?? errors.tags?.[index]?.value?.message}
                />
              </div>
            ))}
            <Button
              type="button"
              variant="outline"
              size="sm"
              className="justify-self-start"
              onClick={() => tags.append({ key: '', value: '' })}
            >
              <PlusIcon />
              Add tag
            </Button>
          </fieldset>
          <DialogFooter>
            <Button type="button" variant="ghost" onClick={() => close(false)}>
              Cancel
            </Button>
            <SubmitButton pending={create.isPending} className="w-auto">
              Create cluster
            </SubmitButton>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
