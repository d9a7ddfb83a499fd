import { PlusIcon, XIcon } from 'lucide-react';
import * as React from 'react';
import { Controller, useFieldArray } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { CLOUD_BACKENDS, CloudMachineFields } from '@/components/clusters/cloud-machine-fields';
import { SoftwarePicker } from '@/components/clusters/software-picker';
import { WorkerSizeFields } from '@/components/clusters/worker-size-fields';
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
import { useAccountOptionsQuery } from '@/data/clusters/account-options-query';
import { useClusterCreateMutation } from '@/data/clusters/cluster-create-mutation';
import {
  type CreateClusterValues,
  createClusterBody,
  createClusterSchema,
  defaultValues,
  IDLE_TIMEOUTS,
  MAX_WORKERS,
} from '@/lib/clusters/create-cluster-form';
import { clusterLink } from '@/lib/clusters/links';
import { type ServerFields, showServerErrors, useZodForm } from '@/lib/forms';

/** Where the server's field errors are shown; the rest go to the alert above the form. */
const SERVER_FIELDS: ServerFields<CreateClusterValues> = {
  name: 'name',
  workers: 'workers',
  env_name: 'envName',
  'worker_options.nthreads': 'workerCores',
  'worker_options.memory_limit': 'workerMemory',
  worker_instance_types: 'workerInstanceType',
};

type WorkspaceChoice = {
  slug: string;
  name: string;
  /** Where the workspace's clusters run: a cloud backend offers instance types and spot. */
  activeBackend?: string;
  organization: { name: string; isPersonal: boolean };
};

type CreateClusterDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Where the cluster may go: the user's workspaces in the scope the page lists (never empty). */
  workspaces: WorkspaceChoice[];
  /** Picked at first: the sidebar's workspace when it is one of them. */
  defaultWorkspace: string;
};

const describeWorkspace = (workspace: WorkspaceChoice) =>
  workspace.organization.isPersonal ? workspace.name : `${workspace.name} (${workspace.organization.name})`;

/**
 * Workspace, name, workers, idle timeout, software environment and tags; creates the cluster in
 * the workspace shown (one of the listed scope's) and opens it.
 */
export function CreateClusterDialog({
  open,
  onOpenChange,
  workspaces,
  defaultWorkspace,
}: CreateClusterDialogProps) {
  const navigate = useNavigate();
  const create = useClusterCreateMutation();
  const form = useZodForm(createClusterSchema, { defaultValues: defaultValues(defaultWorkspace) });
  const tags = useFieldArray({ control: form.control, name: 'tags' });
  const { errors } = form.formState;
  const slug = form.watch('workspace');
  const workspace = workspaces.find((candidate) => candidate.slug === slug) ?? workspaces[0]!;
  const options = useAccountOptionsQuery({ account: workspace.slug }, { enabled: open });
  const [failure, setFailure] = React.useState<string | null>(null);

  // Opening starts from the workspace the page shows now (the scope may have changed meanwhile).
  React.useEffect(() => {
    if (open) form.reset(defaultValues(defaultWorkspace));
    setFailure(null);
  }, [open, defaultWorkspace, form]);
  const cloudBackend = CLOUD_BACKENDS.find((b) => b === workspace.activeBackend) ?? null;

  function close(next: boolean) {
    onOpenChange(next);
    if (!next) create.reset();
  }

  const onSubmit = form.handleSubmit((input) => {
    setFailure(null);
    create.mutate(
      { account: input.workspace, body: createClusterBody(input, cloudBackend !== null) },
      {
        onSuccess: ({ id, existing }) => {
          if (existing) toast.info(`${input.name} is already running in ${workspace.name}; here it is.`);
          else toast.success(`Creating ${input.name} in ${workspace.name}`);
          close(false);
          navigate(clusterLink({ id, account: { slug: input.workspace } }));
        },
        onError: (error) => setFailure(showServerErrors(form.setError, error, SERVER_FIELDS)),
      },
    );
  });

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
          <Controller
            control={form.control}
            name="workspace"
            render={({ field }) => (
              <FormField id="create-cluster-workspace" label="Workspace" error={errors.workspace?.message}>
                <Select value={field.value} onValueChange={field.onChange} disabled={workspaces.length < 2}>
                  <SelectTrigger id="create-cluster-workspace" className="w-full" onBlur={field.onBlur}>
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    {workspaces.map((candidate) => (
                      <SelectItem key={candidate.slug} value={candidate.slug}>
                        {describeWorkspace(candidate)}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              </FormField>
            )}
          />
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
              description={`From 0 to ${MAX_WORKERS}.`}
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
          {cloudBackend ? (
            <CloudMachineFields control={form.control} backendType={cloudBackend} />
          ) : (
            <WorkerSizeFields control={form.control} machine={options.data?.workerMachine ?? undefined} />
          )}
          <Controller
            control={form.control}
            name="envName"
            render={({ field }) => (
              <SoftwarePicker
                workspace={slug}
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
