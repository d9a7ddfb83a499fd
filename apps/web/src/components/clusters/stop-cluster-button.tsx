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
import { cn } from '@/lib/utils';

type StopClusterButtonProps = {
  cluster: Pick<ClusterSummary, 'id' | 'name' | 'creator' | 'account' | 'currentState'>;
  /** `compact` for table rows, `button` for a page header. */
  variant?: 'compact' | 'button';
};

/**
 * Stop, after a confirmation. When the caller may not stop the cluster, or it is already stopping
 * or over, the button says why: it stays focusable (aria-disabled, not disabled, so the pointer and
 * the keyboard reach the button itself rather than a wrapper around a disabled one), is described
 * by the reason, shows it in a tooltip on hover and focus and, on a page's header, in words beside it.
 */
export function StopClusterButton({ cluster, variant = 'button' }: StopClusterButtonProps) {
  const signedIn = useSignedIn();
  const stop = useClusterStopMutation();
  const [open, setOpen] = React.useState(false);
  const check = stopCheck(cluster, signedIn);
  const reasonId = React.useId();
  const label = `Stop ${cluster.name}`;
  const unavailable = !check.allowed;
  const common = {
    disabled: stop.isPending,
    'aria-disabled': unavailable || undefined,
    'aria-describedby': unavailable ? reasonId : undefined,
    onClick: () => {
      if (!unavailable) setOpen(true);
    },
  };
  const icon = stop.isPending ? <LoaderCircleIcon className="animate-spin" /> : <CircleStopIcon />;

  const trigger =
    variant === 'compact' ? (
      <Button
        variant="ghost"
        size="sm"
        aria-label={label}
        {...common}
        className={cn(
          'text-muted-foreground',
          unavailable ? 'cursor-not-allowed opacity-50' : 'hover:text-destructive',
        )}
      >
        {icon}
        Stop
      </Button>
    ) : (
      <Button variant="outline" {...common} className={cn(unavailable && 'cursor-not-allowed opacity-50')}>
        {icon}
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
      {unavailable ? (
        <span
          className={cn(
            'inline-flex items-center gap-2',
            variant === 'button' && 'max-sm:flex-col-reverse max-sm:items-end',
          )}
        >
          {variant === 'button' ? (
            // Said in words on a page: a tooltip needs a pointer or a keyboard to show.
            <span id={reasonId} className="text-muted-foreground max-w-64 text-right text-xs">
              {check.reason}
            </span>
          ) : (
            <span id={reasonId} className="sr-only">
              {check.reason}
            </span>
          )}
          <Tooltip>
            <TooltipTrigger asChild>{trigger}</TooltipTrigger>
            <TooltipContent>{check.reason}</TooltipContent>
          </Tooltip>
        </span>
      ) : (
        trigger
      )}
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
