import * as React from 'react';
import { toast } from 'sonner';

import { FormAlert } from '@/components/form-alert';
import { FormField } from '@/components/form-field';
import { SubmitButton } from '@/components/submit-button';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import {
  type SlurmCluster,
  type SlurmClusterBody,
  useCheckSlurmClusterMutation,
  useConnectSlurmClusterMutation,
  useDisconnectSlurmClusterMutation,
  useSlurmClustersQuery,
} from '@/data/cloud/slurm-clusters';
import { COMMON_STATUS, MachineActions, MachineItem, MachinesCard } from '@/features/setup/machine-card';
import { SshKeyFields, useServerErrors } from '@/features/setup/machine-form';
import { ReplaceTokenForm, TokenExpiry } from '@/features/setup/slurm-token';
import { formatMemoryMib } from '@/lib/format';

const STATUS = { ...COMMON_STATUS, no_slurm: { label: 'No Slurm', ok: false } };

/**
 * The workspace's Slurm cluster (the `slurm` backend, docs/slurm.md): its login node and job
 * settings, with its health as Cumulus last checked it (sinfo for the partition); admins connect
 * one (the server checks the login node first) and disconnect it.
 */
export function SlurmClusterCard({ account, isAdmin }: { account: string; isAdmin: boolean }) {
  const clusters = useSlurmClustersQuery(account);
  return (
    <MachinesCard
      title="Slurm clusters"
      description="An HPC cluster your team already has. Once it is connected, each scheduler and worker of this workspace's new clusters is a Slurm job, submitted with sbatch on its login node."
      query={clusters}
      empty="No Slurm cluster connected."
      item={(cluster) => (
        <ClusterItem key={cluster.id} account={account} cluster={cluster} isAdmin={isAdmin} />
      )}
      // A workspace connects one.
      form={
        isAdmin && clusters.data?.count === 0 ? (
          <ConnectForm account={account} logins={clusters.data.logins} />
        ) : null
      }
    />
  );
}

const or = (value: string | number | null, unset: string) => (value === null ? unset : String(value));

function ClusterItem({
  account,
  cluster,
  isAdmin,
}: {
  account: string;
  cluster: SlurmCluster;
  isAdmin: boolean;
}) {
  const check = useCheckSlurmClusterMutation(account);
  const disconnect = useDisconnectSlurmClusterMutation(account);
  return (
    <MachineItem
      name={cluster.name}
      where={
        cluster.login === 'local'
          ? 'this server'
          : cluster.login === 'rest'
            ? `${cluster.user} at ${cluster.restUrl}`
            : `${cluster.user}@${cluster.address}:${cluster.port}`
      }
      health={cluster.health}
      labels={STATUS}
      checkedAt={cluster.checkedAt}
      failure={check.error ?? disconnect.error}
      actions={
        isAdmin ? (
          <>
            <MachineActions
              id={cluster.id}
              name={cluster.name}
              check={check}
              remove={disconnect}
              removeWord="Disconnect"
              confirm={{
                description:
                  'Cumulus forgets the Slurm cluster and its private key; nothing on the cluster changes. Refused while clusters run there.',
                label: 'Disconnect cluster',
                done: 'disconnected',
              }}
            />
            {cluster.login === 'rest' ? <ReplaceTokenForm account={account} cluster={cluster} /> : null}
          </>
        ) : null
      }
    >
      <dt className="text-muted-foreground">Partition</dt>
      <dd className="break-all">
        {or(cluster.partition, 'the default')}
        {cluster.health?.partitionState ? ` (${cluster.health.partitionState})` : ''}
      </dd>
      <dt className="text-muted-foreground">Account · QOS</dt>
      <dd className="break-all">
        {or(cluster.slurmAccount, 'default')} · {or(cluster.qos, 'default')}
      </dd>
      <dt className="text-muted-foreground">Time limit</dt>
      <dd>{cluster.timeLimitMinutes === null ? "the partition's" : `${cluster.timeLimitMinutes} minutes`}</dd>
      <dt className="text-muted-foreground">A node offers</dt>
      <dd>
        {cluster.nodeCores} cores · {formatMemoryMib(cluster.nodeMemoryMib)}
        {cluster.nodeGpus ? ` · ${cluster.nodeGpus} GPU${cluster.nodeGpus > 1 ? 's' : ''}` : ''}
      </dd>
      {cluster.login === 'rest' ? (
        <>
          <dt className="text-muted-foreground">Token</dt>
          <TokenExpiry expires={cluster.tokenExpires} />
        </>
      ) : null}
      <dt className="text-muted-foreground">Python</dt>
      <dd className="break-all">{cluster.python}</dd>
    </MachineItem>
  );
}

/** The form's fields, by the request's: a server field error shows at its field. */
const FIELDS = [
  'name',
  'login',
  'address',
  'port',
  'user',
  'host_key',
  'private_key',
  'rest_url',
  'token',
  'partition',
  'slurm_account',
  'qos',
  'time_limit_minutes',
  'node_cores',
  'node_memory_mib',
  'node_gpus',
  'python',
] as const;

type Login = 'ssh' | 'local' | 'rest';

/** The login choices, offered only where the server accepts them (`local` where its operator allows it). */
const LOGIN_LABELS: Record<Login, string> = {
  ssh: 'Over SSH',
  local: 'This Cumulus server',
  rest: 'slurmrestd (JWT)',
};

/** What each login asks, under the login's choice. */
const LOGIN_HELP: Record<Exclude<Login, 'local'>, string> = {
  ssh: 'Where sbatch, squeue and scancel run, reached over SSH.',
  rest: "Slurm's REST API (slurmrestd) with a JWT: jobs run as the token's Slurm user.",
};

/** The refusal (OPERATOR_ONLY) anyone but the server's operator meets when starting a cluster there, said before connecting. */
const operatorOnly = (name: string) =>
  `Only this server's operator can start clusters here: it runs them as its own user (the Slurm cluster ${name || 'NAME'} is submitted to from this server's machine (login "local"), so its jobs run as the server's user).`;

const number = (text: string) => (text.trim() === '' ? undefined : Number(text));
const optional = (text: string) => text.trim() || undefined;

function ConnectForm({ account, logins }: { account: string; logins: Login[] }) {
  const connect = useConnectSlurmClusterMutation(account);
  const [values, setValues] = React.useState({
    name: '',
    login: 'ssh' as Login,
    address: '',
    port: '22',
    user: '',
    hostKey: '',
    restUrl: '',
    token: '',
    partition: '',
    slurmAccount: '',
    qos: '',
    timeLimit: '',
    nodeCores: '',
    nodeMemoryGib: '',
    nodeGpus: '',
    python: 'python3',
  });
  const keyInput = React.useRef<HTMLTextAreaElement>(null);
  const [hasKey, setHasKey] = React.useState(false);
  const set = (field: keyof typeof values) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setValues((v) => ({ ...v, [field]: e.target.value }));
  const { errorsOf, general } = useServerErrors(connect.error, FIELDS);
  const ssh = values.login === 'ssh';
  const rest = values.login === 'rest';

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const gib = number(values.nodeMemoryGib);
    const body = {
      name: values.name.trim(),
      login: values.login,
      ...(ssh && {
        address: optional(values.address),
        port: number(values.port),
        user: optional(values.user),
        host_key: optional(values.hostKey),
        private_key: keyInput.current?.value || undefined,
      }),
      ...(rest && {
        rest_url: optional(values.restUrl),
        user: optional(values.user),
        token: optional(values.token),
      }),
      partition: optional(values.partition),
      slurm_account: optional(values.slurmAccount),
      qos: optional(values.qos),
      time_limit_minutes: number(values.timeLimit),
      node_cores: number(values.nodeCores),
      node_memory_mib: gib === undefined ? undefined : Math.round(gib * 1024),
      node_gpus: number(values.nodeGpus),
      python: optional(values.python),
    } as SlurmClusterBody;
    connect.mutate(body, {
      onSuccess: (cluster) => {
        toast.success(`${cluster.name} connected: ${cluster.health?.message ?? 'checked'}`);
        if (keyInput.current) keyInput.current.value = '';
        setHasKey(false);
        setValues((v) => ({ ...v, token: '' }));
      },
    });
  };

  /** A text field of the form: its label, the value it edits, the request's field its errors come at. */
  const field = (
    label: string,
    key: Exclude<keyof typeof values, 'login'>,
    name: (typeof FIELDS)[number],
    description?: string,
    inputMode?: 'numeric' | 'decimal',
    type?: 'password',
  ) => (
    <FormField label={label} error={errorsOf(name)} description={description}>
      <Input
        autoComplete="off"
        spellCheck={false}
        inputMode={inputMode}
        type={type}
        className={inputMode || key === 'name' ? undefined : 'font-mono'}
        value={values[key]}
        onChange={set(key)}
      />
    </FormField>
  );
  return (
    <form noValidate onSubmit={submit} className="grid gap-4" aria-labelledby="slurm-connect-title">
      <h3 id="slurm-connect-title" className="font-medium">
        Connect a Slurm cluster
      </h3>
      <p className="text-muted-foreground text-sm">
        Cumulus checks the login node before connecting: sbatch, squeue, scancel and sinfo must run there, and
        sinfo must list the partition. A workspace connects one Slurm cluster.
      </p>
      <FormAlert>{general}</FormAlert>
      <div className="grid gap-4 sm:grid-cols-2">
        {field('Name', 'name', 'name', 'Lowercase letters, digits and dashes.')}
        <FormField
          id="slurm-login"
          label="Login node"
          error={errorsOf('login')}
          description={
            values.login === 'local'
              ? "Only where this server's operator allows it (CUMULUS_SLURM_LOCAL_LOGIN): jobs run as the server's own user."
              : LOGIN_HELP[values.login]
          }
        >
          <Select
            value={values.login}
            onValueChange={(login) => setValues((v) => ({ ...v, login: login as Login }))}
          >
            <SelectTrigger id="slurm-login" className="w-full">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {logins.map((login) => (
                <SelectItem key={login} value={login}>
                  {LOGIN_LABELS[login]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </FormField>
        {ssh ? (
          <>
            {field('Address', 'address', 'address', "The login node's address.")}
            {field('Port', 'port', 'port', undefined, 'numeric')}
            {field('User', 'user', 'user', 'The account jobs are submitted as.')}
          </>
        ) : null}
        {rest ? (
          <>
            {field('slurmrestd URL', 'restUrl', 'rest_url', 'Its base URL: http://host:6820.')}
            {field('Slurm user', 'user', 'user', 'The user the token is of: jobs run as it.')}
            {field(
              'Token',
              'token',
              'token',
              'scontrol token username=<user>. Kept encrypted, never shown again.',
              undefined,
              'password',
            )}
          </>
        ) : null}
      </div>
      {values.login === 'local' ? (
        <p role="note" className="rounded-md border border-amber-500/40 bg-amber-500/10 p-3 text-sm">
          {operatorOnly(values.name.trim())} Anyone else who starts a cluster in this workspace is refused.
        </p>
      ) : null}
      {ssh ? (
        <SshKeyFields
          machine="login node"
          hostKey={values.hostKey}
          onHostKey={(hostKey) => setValues((v) => ({ ...v, hostKey }))}
          keyInput={keyInput}
          onHasKey={setHasKey}
          errorsOf={errorsOf}
        />
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        {field('Partition', 'partition', 'partition', "Slurm's default if empty.")}
        {field('Slurm account', 'slurmAccount', 'slurm_account', 'sbatch --account.')}
        {field('QOS', 'qos', 'qos', 'sbatch --qos.')}
        {field(
          'Time limit (minutes)',
          'timeLimit',
          'time_limit_minutes',
          "The partition's if empty.",
          'numeric',
        )}
        {field('Cores per node', 'nodeCores', 'node_cores', 'No instance asks for more.', 'numeric')}
        {field('Memory per node (GiB)', 'nodeMemoryGib', 'node_memory_mib', undefined, 'decimal')}
        {field('GPUs per node', 'nodeGpus', 'node_gpus', "Slurm's gpu GRES; none if empty.", 'numeric')}
      </div>
      {field('Python', 'python', 'python', 'The interpreter with Dask on the compute nodes.')}
      <SubmitButton
        pending={connect.isPending}
        disabled={
          !values.name ||
          !values.nodeCores ||
          !values.nodeMemoryGib ||
          (ssh && (!values.address || !values.user || !values.hostKey || !hasKey)) ||
          (rest && (!values.restUrl || !values.user || !values.token))
        }
        className="w-auto justify-self-start"
      >
        Connect cluster
      </SubmitButton>
    </form>
  );
}
