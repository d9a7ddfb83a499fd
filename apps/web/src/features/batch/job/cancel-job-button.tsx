import { CircleStopIcon, LoaderCircleIcon } from 'lucide-react';
import * as React from 'react';
import { toast } from 'sonner';

import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { useJobCancelMutation } from '@/data/jobs/job-cancel-mutation';
import { serverMessage } from '@/lib/api/errors';

/**
 * Cancel, after a confirmation (shown only while the job is pending or running). Whoever may not
 * cancel it (neither its creator nor a workspace admin) is told why by the server, in a toast.
 */
export function CancelJobButton({ jobId }: { jobId: number }) {
  const cancel = useJobCancelMutation();
  const [open, setOpen] = React.useState(false);

  function confirm() {
    cancel.mutate(
      { id: jobId },
      {
        onSuccess: () => toast.success(`Batch job ${jobId} cancelled`),
        onError: (error) =>
          toast.error(`Could not cancel batch job ${jobId}`, { description: serverMessage(error) }),
      },
    );
  }

  return (
    <>
      <Button variant="outline" disabled={cancel.isPending} onClick={() => setOpen(true)}>
        {cancel.isPending ? <LoaderCircleIcon className="animate-spin" /> : <CircleStopIcon />}
        Cancel job
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={`Cancel batch job ${jobId}?`}
        description="Its running tasks are stopped, tasks not started yet never run, and its cluster stops. Output and logs of the tasks that ran stay available."
        confirmLabel="Cancel job"
        cancelLabel="Keep it running"
        onConfirm={confirm}
      />
    </>
  );
}
