import * as React from 'react';
import { toast } from 'sonner';

import { ConfirmDialog } from '@/components/confirm-dialog';
import { FormAlert } from '@/components/form-alert';
import { TimeAgo } from '@/components/time-ago';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { SetupCard } from '@/features/setup/setup-card';
import { serverMessage } from '@/lib/api/errors';

/**
 * What the SSH hosts tab and the Slurm tab show alike of the workspace's own machines: the card
 * with its list, each machine's heading with its health, its Check now and Remove buttons.
 */

/** The words of a health status; any status not named reads as itself, a failure. */
export const COMMON_STATUS: Record<string, { label: string; ok: boolean }> = {
  ok: { label: 'Healthy', ok: true },
  unreachable: { label: 'Unreachable', ok: false },
  host_key_mismatch: { label: 'Host key mismatch', ok: false },
  refused: { label: 'Login refused', ok: false },
};

function statusOf(health: { status: string } | null, labels: Record<string, { label: string; ok: boolean }>) {
  return health ? (labels[health.status] ?? { label: health.status, ok: false }) : null;
}

function HealthBadge({ status }: { status: { label: string; ok: boolean } | null }) {
  return status ? (
    <Badge variant={status.ok ? 'secondary' : 'destructive'}>{status.label}</Badge>
  ) : (
    <Badge variant="outline">Not checked</Badge>
  );
}

type Pending = { isPending: boolean; mutate: (id: number, options?: { onSuccess?: () => void }) => void };

/** Check now and Remove (confirmed) for one machine; their names keep the visible words, then its name. */
export function MachineActions({
  id,
  name,
  check,
  remove,
  removeWord = 'Remove',
  confirm,
}: {
  id: number;
  name: string;
  check: Pending;
  remove: Pending;
  removeWord?: string;
  confirm: { description: string; label: string; done: string };
}) {
  const [confirming, setConfirming] = React.useState(false);
  return (
    <div className="flex flex-wrap gap-2">
      <Button variant="secondary" size="sm" disabled={check.isPending} onClick={() => check.mutate(id)}>
        {check.isPending ? 'Checking' : 'Check now'}
        <span className="sr-only"> {name}</span>
      </Button>
      <Button variant="outline" size="sm" disabled={remove.isPending} onClick={() => setConfirming(true)}>
        {removeWord}
        <span className="sr-only"> {name}</span>
      </Button>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`${removeWord} ${name}?`}
        description={confirm.description}
        confirmLabel={confirm.label}
        onConfirm={() => remove.mutate(id, { onSuccess: () => toast.success(`${name} ${confirm.done}`) })}
      />
    </div>
  );
}

type Health = { status: string; message: string } | null;

/** The card: its error, its empty state, the list (named `title`), and the form that adds one. */
export function MachinesCard<T extends { id: number }>({
  title,
  description,
  query,
  empty,
  item,
  form,
}: {
  title: string;
  description: React.ReactNode;
  query: { isError: boolean; error: unknown; isSuccess: boolean; data?: { items: T[] } };
  empty: string;
  item: (machine: T) => React.ReactNode;
  form: React.ReactNode;
}) {
  const items = query.data?.items ?? [];
  return (
    <SetupCard title={title} description={description}>
      {query.isError ? <FormAlert>{serverMessage(query.error)}</FormAlert> : null}
      {query.isSuccess && items.length === 0 ? (
        <p className="text-muted-foreground text-sm">{empty}</p>
      ) : null}
      {items.length > 0 ? (
        <ul className="grid gap-3" aria-label={title}>
          {items.map(item)}
        </ul>
      ) : null}
      {form}
    </SetupCard>
  );
}

/**
 * One machine of the list: its name, where it is, its health, what `children` (dt/dd pairs) say of
 * it and when it was last checked, then what went wrong with a button, and the buttons (`actions`).
 */
export function MachineItem({
  name,
  where,
  health,
  labels,
  checkedAt,
  failure,
  actions,
  children,
}: {
  name: string;
  where: string;
  health: Health;
  labels: Record<string, { label: string; ok: boolean }>;
  checkedAt: string | null;
  failure: unknown;
  actions: React.ReactNode;
  children: React.ReactNode;
}) {
  const status = statusOf(health, labels);
  return (
    <li className="grid gap-2 rounded-lg border p-3 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium">{name}</span>
        <span className="text-muted-foreground min-w-0 font-mono text-xs break-all">{where}</span>
        <HealthBadge status={status} />
      </div>
      {health ? (
        <p className={status?.ok ? 'text-muted-foreground' : 'text-destructive'}>{health.message}</p>
      ) : null}
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs sm:grid-cols-[auto_1fr_auto_1fr]">
        {children}
        <dt className="text-muted-foreground">Last check</dt>
        <dd>{checkedAt ? <TimeAgo value={checkedAt} /> : 'never'}</dd>
      </dl>
      <FormAlert>{failure ? serverMessage(failure) : null}</FormAlert>
      {actions}
    </li>
  );
}
