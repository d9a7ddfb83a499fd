import { PlusIcon } from 'lucide-react';
import * as React from 'react';
import { Controller } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { ChoiceField } from '@/components/choice-field';
import { CLOUD_BACKENDS } from '@/components/clusters/cloud-machine-fields';
import { useCreateTarget } from '@/components/clusters/create-cluster-button';
import { SoftwarePicker } from '@/components/clusters/software-picker';
import { coreChoices } from '@/components/clusters/worker-size-fields';
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
import { WhyDisabled } from '@/components/why-disabled';
import { useVmTypesQuery } from '@/data/cloud/vm-types-query';
import { useAccountOptionsQuery } from '@/data/clusters/account-options-query';
import { useClusterCreateMutation } from '@/data/clusters/cluster-create-mutation';
import {
  CLUSTER_NAME_RULE,
  createClusterBody,
  DEFAULT_IDLE_TIMEOUT,
  suggestedName,
} from '@/lib/clusters/create-cluster-form';
import { formatMemoryMib } from '@/lib/format';
import { type ServerFields, showServerErrors, useZodForm } from '@/lib/forms';

const WORKER_CHOICES = ['0', '1', '2', '4'].map((n) => ({ value: n, label: n === '0' ? 'None' : n }));

const newNotebookSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, { message: 'Notebook name is required', abort: true })
    .max(100, 'Notebook names are limited to 100 characters')
    .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, CLUSTER_NAME_RULE),
  envName: z.string(),
  /** This server's machines: the notebook's cores; a cloud: its instance type ('' = the workspace's). */
  cores: z.string().regex(/^\d+$/),
  instanceType: z.string().max(64),
  workers: z.enum(['0', '1', '2', '4']),
});
type NewNotebookValues = z.input<typeof newNotebookSchema>;

/** Where the server's field errors are shown: the size asks the notebook's and the workers' cores. */
const SERVER_FIELDS: ServerFields<NewNotebookValues> = {
  name: 'name',
  env_name: 'envName',
  'worker_options.nthreads': 'cores',
  'scheduler_options.cpu': 'cores',
  worker_instance_types: 'instanceType',
  scheduler_instance_types: 'instanceType',
};

const defaults = (): NewNotebookValues => ({
  name: suggestedName('notebook'),
  envName: '',
  cores: '1',
  instanceType: '',
  // Without workers, Client().submit(...) in the notebook would wait for ever.
  workers: '1',
});

/**
 * New notebook: a notebook cluster (tagged so this page lists it) whose scheduler's instance runs
 * Jupyter, `Client()` wired to it. Its size is the notebook instance's: cores here, an instance
 * type on a cloud; workers, of the same size, are optional.
 */
export function NewNotebookButton() {
  const { choices, initial, reason } = useCreateTarget();
  const [open, setOpen] = React.useState(false);
  return (
    <>
      <WhyDisabled reason={reason}>
        <Button onClick={() => setOpen(true)} disabled={!initial}>
          <PlusIcon aria-hidden="true" />
          New notebook
        </Button>
      </WhyDisabled>
      {initial ? (
        <NewNotebookDialog
          open={open}
          onOpenChange={setOpen}
          workspace={choices.find((c) => c.slug === initial.slug) ?? initial}
        />
      ) : null}
    </>
  );
}

type Workspace = { slug: string; name: string; activeBackend?: string };

function NewNotebookDialog({
  open,
  onOpenChange,
  workspace,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  workspace: Workspace;
}) {
  const create = useClusterCreateMutation();
  const form = useZodForm(newNotebookSchema, { defaultValues: defaults() });
  const { errors } = form.formState;
  const cloud = CLOUD_BACKENDS.find((b) => b === workspace.activeBackend) ?? null;
  const types = useVmTypesQuery(cloud);
  const options = useAccountOptionsQuery({ account: workspace.slug }, { enabled: open && !cloud });
  const [failure, setFailure] = React.useState<string | null>(null);

  React.useEffect(() => {
    if (open) form.reset(defaults());
    setFailure(null);
  }, [open, form]);

  function close(next: boolean) {
    onOpenChange(next);
    if (!next) create.reset();
  }

  const onSubmit = form.handleSubmit((input) => {
    setFailure(null);
    const base = createClusterBody(
      {
        workspace: workspace.slug,
        name: input.name,
        workers: input.workers,
        idleTimeout: DEFAULT_IDLE_TIMEOUT,
        envName: input.envName,
        tags: [{ key: 'cumulus-cluster-type', value: 'notebook' }],
        workerInstanceType: input.instanceType,
        spot: false,
        workerCores: input.cores,
        workerMemory: '',
      },
      cloud !== null,
    );
    const body = {
      ...base,
      scheduler_instance_types: cloud && input.instanceType ? [input.instanceType] : null,
      // Jupyter runs beside the scheduler; the notebook waits for its user, not for a client.
      scheduler_options: {
        ...base.scheduler_options,
        jupyter: true,
        no_client_timeout: null,
        ...(cloud ? {} : { cpu: Number(input.cores) }),
      },
    };
    create.mutate(
      { account: workspace.slug, body },
      {
        onSuccess: ({ existing }) => {
          if (existing) toast.info(`${input.name} is already running; open it from the list.`);
          else toast.success(`Starting notebook ${input.name}: Open it once it is ready.`);
          close(false);
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
            <DialogTitle>New notebook</DialogTitle>
            <DialogDescription>
              Jupyter on an instance of its own in{' '}
              <span className="text-foreground font-medium">{workspace.name}</span>, with{' '}
              <code className="font-mono text-xs">Client()</code> connected to its Dask cluster. It stops once
              no kernel has worked for {DEFAULT_IDLE_TIMEOUT}.
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
          <div className="grid gap-4 sm:grid-cols-2">
            <ChoiceField
              control={form.control}
              name={cloud ? 'instanceType' : 'cores'}
              id="new-notebook-size"
              label="Size"
              description={
                cloud ? "The notebook's instance type." : 'Cores of the notebook and of each worker.'
              }
              choices={
                cloud
                  ? [
                      { value: '', label: "The workspace's default" },
                      ...(types.data?.items ?? []).map((t) => ({
                        value: t.name,
                        label: `${t.name} · ${t.cores} cores · ${formatMemoryMib(t.memory)}`,
                      })),
                    ]
                  : coreChoices(options.data?.workerMachine ?? undefined)
              }
            />
            <ChoiceField
              control={form.control}
              name="workers"
              id="new-notebook-workers"
              label="Workers"
              description="Dask workers beside it, which Client() in the notebook computes on."
              choices={WORKER_CHOICES}
            />
          </div>
          <p className="text-muted-foreground text-xs">
            Jupyter comes from the notebook's software: the server's Python needs Debian's{' '}
            <code className="font-mono">python3-notebook</code> (the setup script installs it), a software
            environment needs <code className="font-mono">jupyterlab</code>.
          </p>
          <DialogFooter>
            <Button type="button" variant="ghost" onClick={() => close(false)}>
              Cancel
            </Button>
            <SubmitButton pending={create.isPending} className="w-auto">
              Start notebook
            </SubmitButton>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
