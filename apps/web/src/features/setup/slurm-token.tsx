import * as React from 'react';
import { toast } from 'sonner';

import { FormAlert } from '@/components/form-alert';
import { FormField } from '@/components/form-field';
import { SubmitButton } from '@/components/submit-button';
import { Input } from '@/components/ui/input';
import { type SlurmCluster, useReplaceSlurmTokenMutation } from '@/data/cloud/slurm-clusters';
import { useServerErrors } from '@/features/setup/machine-form';

const DAY_MS = 24 * 60 * 60 * 1000;

/** When slurmrestd's token expires, said plainly; amber within three days, red once past. */
export function TokenExpiry({ expires }: { expires: string | null }) {
  if (!expires) return <dd>no expiry in the token</dd>;
  const at = new Date(expires);
  const left = at.getTime() - Date.now();
  const when = at.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  if (left <= 0) return <dd className="text-destructive">expired {when}: give a new one</dd>;
  return (
    <dd className={left < 3 * DAY_MS ? 'text-amber-300' : undefined}>
      expires {when}
      {left < 3 * DAY_MS ? ': give a new one soon' : ''}
    </dd>
  );
}

/**
 * An admin's form to give the cluster a new slurmrestd token (the old one expires): the server
 * checks it with slurmrestd first, and running clusters use it from their next call.
 */
export function ReplaceTokenForm({ account, cluster }: { account: string; cluster: SlurmCluster }) {
  const replace = useReplaceSlurmTokenMutation(account);
  const [token, setToken] = React.useState('');
  const { errorsOf, general } = useServerErrors(replace.error, ['token']);
  const id = `slurm-token-${cluster.id}`;
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    replace.mutate(
      { cluster: cluster.id, token: token.trim() },
      {
        onSuccess: () => {
          setToken('');
          toast.success(`${cluster.name}: new token taken`);
        },
      },
    );
  };
  return (
    <form
      noValidate
      onSubmit={submit}
      className="grid gap-2"
      aria-label={`Replace the token of ${cluster.name}`}
    >
      <FormField
        id={id}
        label="New token"
        error={errorsOf('token')}
        description={`scontrol token username=${cluster.user ?? '<user>'} lifespan=<seconds>. Kept encrypted, never shown again.`}
      >
        <Input
          type="password"
          autoComplete="off"
          spellCheck={false}
          className="font-mono"
          value={token}
          onChange={(e) => setToken(e.target.value)}
        />
      </FormField>
      <SubmitButton pending={replace.isPending} valid={token.trim() !== ''} className="sm:w-fit">
        Replace token
      </SubmitButton>
      <FormAlert>{general}</FormAlert>
    </form>
  );
}
