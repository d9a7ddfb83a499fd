import { ListChecksIcon } from 'lucide-react';
import { GuideEmptyState } from '@/components/guide-empty-state';
import { useClientCommands } from '@/lib/clusters/client-commands';
import { BATCH_RUN_SNIPPET } from '@/lib/clusters/snippets';

/** No batch jobs yet: what one is, and how to submit one with the Python client. */
export function JobsEmpty({ scope }: { scope: string }) {
  const { login } = useClientCommands();
  return (
    <GuideEmptyState
      slot="jobs-empty"
      icon={ListChecksIcon}
      title={`No batch jobs in ${scope} yet`}
      description="A batch job runs a command as many tasks on a cluster started for it, each task with its own CUMULUS_BATCH_TASK_ID; the cluster stops when the job ends. Submit one with the Python client and follow each task's state, exit code and logs here."
      steps={[
        {
          text: 'Sign in from your terminal',
          code: login,
          label: 'Terminal',
          copyLabel: 'Copy login command',
        },
        {
          text: 'Run a script as 10 tasks',
          code: BATCH_RUN_SNIPPET,
          label: 'Terminal',
          copyLabel: 'Copy batch command',
        },
      ]}
    />
  );
}
