import { ServerIcon } from 'lucide-react';
import type * as React from 'react';
import { useCreateTarget } from '@/components/clusters/create-cluster-button';
import { GuideEmptyState } from '@/components/guide-empty-state';
import { useClientCommands } from '@/lib/clusters/client-commands';
import { firstClusterSnippet } from '@/lib/clusters/snippets';

/** A scope without clusters: how to start one from Python, or from here. */
export function ClustersEmpty({ scope, action }: { scope: string; action?: React.ReactNode }) {
  const commands = useClientCommands();
  const { initial } = useCreateTarget();
  return (
    <GuideEmptyState
      slot="clusters-empty"
      icon={ServerIcon}
      title={`No clusters in ${scope} yet`}
      description="A cluster is a Dask scheduler and its workers. Start one from Python and it shows up here, with its state, instances and logs."
      action={action}
      steps={[
        {
          text: 'Install the Python client of this server',
          code: commands.install,
          label: 'Terminal',
          copyLabel: 'Copy install commands',
        },
        {
          text: 'Sign in from your terminal',
          code: commands.login,
          label: 'Terminal',
          copyLabel: 'Copy login command',
        },
        {
          text: 'Start a cluster and connect to it',
          code: firstClusterSnippet(initial?.slug ?? null),
          label: 'Python',
          copyLabel: 'Copy Python snippet',
        },
      ]}
    />
  );
}
