import { PlusIcon } from 'lucide-react';
import * as React from 'react';

import { Button } from '@/components/ui/button';
import { WhyDisabled } from '@/components/why-disabled';
import { useScope, workspacesInScope } from '@/lib/scopes';
import { useWorkspace } from '@/lib/workspace';

// The dialog and its form library load when first wanted (pointer on the button, focus, click),
// not with the Dashboard: most visits never create a cluster.
const loadDialog = () => import('@/components/clusters/create-cluster-dialog');
const CreateClusterDialog = React.lazy(async () => ({ default: (await loadDialog()).CreateClusterDialog }));

/**
 * Where a new cluster goes: a workspace of the scope the page lists (the sidebar's when it is one),
 * so it shows where the user looks; none, with the reason, when the scope holds none of theirs.
 * Create cluster and the Python snippets beside it (`workspace=`) use the same one.
 */
export function useCreateTarget() {
  const { scope } = useScope();
  const { workspace, workspaces } = useWorkspace();
  const choices = workspacesInScope(scope, workspaces);
  const initial = choices.find((candidate) => candidate.id === workspace?.id) ?? choices[0] ?? null;
  const reason = initial
    ? null
    : workspaces.length === 0
      ? 'You are not a member of any workspace yet.'
      : `None of your workspaces is in ${scope?.name ?? 'this scope'}: pick another scope to create a cluster.`;
  return { choices, initial, reason };
}

/** Create cluster, into the create target; unavailable, saying why, when there is none. */
export function CreateClusterButton({ className }: { className?: string }) {
  const { choices, initial, reason } = useCreateTarget();
  const [open, setOpen] = React.useState(false);
  // Mounted from the first opening on, so closing still animates.
  const [wanted, setWanted] = React.useState(false);
  const prepare = () => void loadDialog();
  return (
    <>
      <WhyDisabled reason={reason}>
        <Button
          onClick={() => {
            setWanted(true);
            setOpen(true);
          }}
          onPointerEnter={prepare}
          onFocus={prepare}
          disabled={!initial}
          className={className}
        >
          <PlusIcon aria-hidden="true" />
          Create cluster
        </Button>
      </WhyDisabled>
      {initial && wanted ? (
        <React.Suspense fallback={null}>
          <CreateClusterDialog
            open={open}
            onOpenChange={setOpen}
            workspaces={choices}
            defaultWorkspace={initial.slug}
          />
        </React.Suspense>
      ) : null}
    </>
  );
}
