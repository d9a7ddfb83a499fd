import * as React from 'react';
import { toast } from 'sonner';

import { FormAlert } from '@/components/form-alert';
import { FormField } from '@/components/form-field';
import { SubmitButton } from '@/components/submit-button';
import { Input } from '@/components/ui/input';
import {
  type SshHost,
  type SshHostBody,
  useAddSshHostMutation,
  useCheckSshHostMutation,
  useRemoveSshHostMutation,
  useSshHostsQuery,
} from '@/data/cloud/ssh-hosts';
import { COMMON_STATUS, MachineActions, MachineItem, MachinesCard } from '@/features/setup/machine-card';
import { SshKeyFields, useServerErrors } from '@/features/setup/machine-form';
import { typeList } from '@/features/setup/messages';
import { formatMemoryMib } from '@/lib/format';

const gpus = (count: number) => `${count} GPU${count === 1 ? '' : 's'}`;

const STATUS = { ...COMMON_STATUS, no_dask: { label: 'No Dask', ok: false } };

/**
 * The workspace's SSH hosts (the `ssh` backend, docs/ssh-hosts.md): each with its health as
 * Cumulus last checked it (reachable with the pinned host key, Python with Dask, what is free) and
 * what Cumulus runs there; admins add (the server checks the host first) and remove them.
 */
export function SshHostsCard({ account, isAdmin }: { account: string; isAdmin: boolean }) {
  return (
    <MachinesCard
      title="SSH hosts"
      description="Machines your team already has. Once a host is added, new clusters of this workspace run on its hosts: Cumulus starts them over SSH as the account given, with the host key pinned."
      query={useSshHostsQuery(account)}
      empty="No SSH hosts yet."
      item={(host) => <HostItem key={host.id} account={account} host={host} isAdmin={isAdmin} />}
      form={isAdmin ? <AddHostForm account={account} /> : null}
    />
  );
}

function HostItem({ account, host, isAdmin }: { account: string; host: SshHost; isAdmin: boolean }) {
  const check = useCheckSshHostMutation(account);
  const remove = useRemoveSshHostMutation(account);
  const health = host.health;
  return (
    <MachineItem
      name={host.name}
      where={`${host.user}@${host.address}:${host.port}`}
      health={health}
      labels={STATUS}
      checkedAt={host.checkedAt}
      failure={check.error ?? remove.error}
      actions={
        isAdmin ? (
          <MachineActions
            id={host.id}
            name={host.name}
            check={check}
            remove={remove}
            confirm={{
              description:
                'Cumulus forgets the host and its private key; nothing on the host changes. Refused while clusters run there.',
              label: 'Remove host',
              done: 'removed',
            }}
          />
        ) : null
      }
    >
      <dt className="text-muted-foreground">Offers</dt>
      <dd>
        {host.cores} cores · {formatMemoryMib(host.memoryMib)}
        {host.gpus ? ` · ${gpus(host.gpus)}` : ''}
      </dd>
      <dt className="text-muted-foreground">Cumulus uses</dt>
      <dd>
        {host.usedCores || host.usedMemoryMib || host.usedGpus ? (
          <>
            {host.usedCores} cores · {formatMemoryMib(host.usedMemoryMib)}
            {host.gpus ? ` · ${gpus(host.usedGpus)}` : ''}
          </>
        ) : (
          'nothing yet'
        )}
      </dd>
      <dt className="text-muted-foreground">Free now</dt>
      <dd>
        {health?.freeCores !== undefined ? `${health.freeCores} cores` : '—'}
        {health?.freeMemoryMib !== undefined ? ` · ${formatMemoryMib(health.freeMemoryMib)}` : ''}
      </dd>
      <dt className="text-muted-foreground">Python</dt>
      <dd className="break-all">
        {host.python}
        {health?.pythonVersion ? ` ${health.pythonVersion}` : ''}
        {health?.daskVersion ? ` · Dask ${health.daskVersion}` : ''}
      </dd>
      <dt className="text-muted-foreground">Labels</dt>
      <dd>{host.labels.length ? host.labels.join(', ') : 'none'}</dd>
    </MachineItem>
  );
}

/** The form's fields, by the request's: a server field error shows at its field. */
const FIELDS = [
  'name',
  'address',
  'port',
  'user',
  'host_key',
  'private_key',
  'python',
  'cores',
  'memory_mib',
  'gpus',
  'labels',
] as const;

const number = (text: string) => (text.trim() === '' ? undefined : Number(text));

function AddHostForm({ account }: { account: string }) {
  const add = useAddSshHostMutation(account);
  const [values, setValues] = React.useState({
    name: '',
    address: '',
    port: '22',
    user: '',
    hostKey: '',
    python: 'python3',
    cores: '',
    memoryGib: '',
    gpus: '0',
    labels: '',
  });
  // The private key stays out of React state: only the textarea holds it, cleared once added.
  const keyInput = React.useRef<HTMLTextAreaElement>(null);
  const [hasKey, setHasKey] = React.useState(false);
  const set =
    (field: keyof typeof values) => (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      setValues((v) => ({ ...v, [field]: e.target.value }));

  const { errorsOf, general } = useServerErrors(add.error, FIELDS);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const gib = number(values.memoryGib);
    const body = {
      name: values.name.trim(),
      address: values.address.trim(),
      port: number(values.port),
      user: values.user.trim(),
      host_key: values.hostKey.trim(),
      private_key: keyInput.current?.value ?? '',
      python: values.python.trim() || undefined,
      cores: number(values.cores),
      memory_mib: gib === undefined ? undefined : Math.round(gib * 1024),
      gpus: number(values.gpus),
      labels: typeList(values.labels),
    } as SshHostBody;
    add.mutate(body, {
      onSuccess: (host) => {
        toast.success(`${host.name} added: ${host.health?.message ?? 'checked'}`);
        if (keyInput.current) keyInput.current.value = '';
        setHasKey(false);
        setValues((v) => ({ ...v, name: '', address: '', hostKey: '', labels: '' }));
      },
    });
  };

  return (
    <form noValidate onSubmit={submit} className="grid gap-4 border-t pt-4" aria-labelledby="ssh-add-title">
      <h3 id="ssh-add-title" className="font-medium">
        Add a host
      </h3>
      <p className="text-muted-foreground text-sm">
        Cumulus checks the host before adding it: it logs in with the private key, refuses any host key but
        the one pinned here, and looks for Python with Dask (distributed).
      </p>
      <FormAlert>{general}</FormAlert>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Name" error={errorsOf('name')} description="Lowercase letters, digits and dashes.">
          <Input autoComplete="off" spellCheck={false} value={values.name} onChange={set('name')} />
        </FormField>
        <FormField
          label="Address"
          error={errorsOf('address')}
          description="Its address as the server and clients reach it."
        >
          <Input
            autoComplete="off"
            spellCheck={false}
            className="font-mono"
            value={values.address}
            onChange={set('address')}
          />
        </FormField>
        <FormField label="Port" error={errorsOf('port')}>
          <Input inputMode="numeric" value={values.port} onChange={set('port')} />
        </FormField>
        <FormField label="User" error={errorsOf('user')} description="The account cluster processes run as.">
          <Input
            autoComplete="off"
            spellCheck={false}
            className="font-mono"
            value={values.user}
            onChange={set('user')}
          />
        </FormField>
      </div>
      <SshKeyFields
        machine="host"
        hostKey={values.hostKey}
        onHostKey={(hostKey) => setValues((v) => ({ ...v, hostKey }))}
        keyInput={keyInput}
        onHasKey={setHasKey}
        errorsOf={errorsOf}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Cores" error={errorsOf('cores')} description="What Cumulus may fill on this host.">
          <Input inputMode="numeric" value={values.cores} onChange={set('cores')} />
        </FormField>
        <FormField label="Memory (GiB)" error={errorsOf('memory_mib')}>
          <Input inputMode="decimal" value={values.memoryGib} onChange={set('memoryGib')} />
        </FormField>
        <FormField label="GPUs" error={errorsOf('gpus')}>
          <Input inputMode="numeric" value={values.gpus} onChange={set('gpus')} />
        </FormField>
        <FormField
          label="Python"
          error={errorsOf('python')}
          description="The interpreter with Dask on the host."
        >
          <Input
            autoComplete="off"
            spellCheck={false}
            className="font-mono"
            value={values.python}
            onChange={set('python')}
          />
        </FormField>
      </div>
      <FormField
        label="Labels"
        error={errorsOf('labels')}
        description="Comma-separated. A cluster asking for a label (worker_vm_types) runs only on hosts that carry it."
      >
        <Input autoComplete="off" spellCheck={false} value={values.labels} onChange={set('labels')} />
      </FormField>
      <SubmitButton
        pending={add.isPending}
        disabled={
          !values.name ||
          !values.address ||
          !values.user ||
          !values.hostKey ||
          !hasKey ||
          !values.cores ||
          !values.memoryGib
        }
        className="w-auto justify-self-start"
      >
        Add host
      </SubmitButton>
    </form>
  );
}
