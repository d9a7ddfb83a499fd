import { CircleStopIcon, LoaderCircleIcon } from 'lucide-react';
import * as React from 'react';
import { toast } from 'sonner';

import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';
import { stopReason, useClusterStopMutation } from '@/data/clusters/cluster-stop-mutation';
import type { ClusterSummary } from '@/data/clusters/clusters-paginate-query';
import { serverMessage } from '@/lib/api/errors';
import { stopCheck } from '@/lib/clusters/permissions';
import { useSignedIn } from '@/lib/signed-in';

type StopClusterButtonProps = {
  cluster: Pick<ClusterSummary, 'id' | 'name' | 'creator' | 'account' | 'currentState'>;
  /** `compact` for table rows, `button` for a page header. */
  variant?: 'compact' | 'button';
};

/**
 * Stop, after a confirmation. Disabled, with a tooltip saying why, when the caller may not stop
 * the cluster or it is already stopping or over.
 */
export function StopClusterButton({ cluster, variant = 'button' }: StopClusterButtonProps) {
  const signedIn = useSignedIn();
  const stop = useClusterStopMutation();
  const [open, setOpen] = React.useState(false);
  const check = stopCheck(cluster, signedIn);
  const disabled = !check.allowed || stop.isPending;
  const label = `Stop ${cluster.name}`;

  const trigger =
    variant === 'compact' ? (
      <Button
        variant="ghost"
        size="sm"
        aria-label={label}
        disabled={disabled}
        onClick={() => setOpen(true)}
        className="text-muted-foreground hover:text-destructive"
      >
        {stop.isPending ? <LoaderCircleIcon className="animate-spin" /> : <CircleStopIcon />}
        Stop
      </Button>
    ) : (
      <Button variant="outline" disabled={disabled} onClick={() => setOpen(true)}>
        {stop.isPending ? <LoaderCircleIcon className="animate-spin" /> : <CircleStopIcon />}
        Stop
      </Button>
    );

  function confirm() {
    stop.mutate(
      { ref: { account: cluster.account.slug, id: cluster.id }, reason: stopReason(signedIn.user.username) },
      {
        onSuccess: () => toast.success(`Stopping ${cluster.name}`),
        onError: (error) =>
          toast.error(`Could not stop ${cluster.name}`, { description: serverMessage(error) }),
      },
    );
  }

  return (
    <>
      <Tooltip>
        <TooltipTrigger asChild>
          {/* A disabled button gets no pointer or focus events: the wrapper carries the tooltip (and focus). */}
          <span tabIndex={check.allowed ? -1 : 0} className="inline-flex rounded-md">
            {trigger}
          </span>
        </TooltipTrigger>
        <TooltipContent>{check.allowed ? label : check.reason}</TooltipContent>
      </Tooltip>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={`Stop ${cluster.name}?`}
        description="Its scheduler and workers shut down and running computations are lost. Dask clients connected to it lose their connection. Its logs and history stay available."
        confirmLabel="Stop cluster"
        onConfirm={confirm}
      />
    </>
  );
}
