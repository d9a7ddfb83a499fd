import { PlusIcon, ServerIcon } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { CodeBlock } from '@/features/clusters/components/code-block';
import { FIRST_CLUSTER_SNIPPET, LOGIN_SNIPPET } from '@/features/clusters/snippets';

/** A scope without clusters: how to start one from Python, or from here. */
export function ClustersEmpty({ scope, onCreate }: { scope: string; onCreate?: () => void }) {
  return (
    <div
      data-slot="clusters-empty"
      className="bg-card/40 grid gap-8 rounded-xl border border-dashed p-6 md:grid-cols-[minmax(0,18rem)_minmax(0,1fr)] md:p-8"
    >
      <div className="flex flex-col items-start gap-3">
        <div className="bg-primary/10 text-primary flex size-10 items-center justify-center rounded-lg border border-primary/20">
          <ServerIcon className="size-5" aria-hidden="true" />
        </div>
        <h2 className="text-base font-semibold">No clusters in {scope} yet</h2>
        <p className="text-muted-foreground text-sm">
          A cluster is a Dask scheduler and its workers. Start one from Python and it shows up here, with its
          state, instances and logs.
        </p>
        {onCreate ? (
          <Button onClick={onCreate} className="mt-1">
            <PlusIcon />
            Create cluster
          </Button>
        ) : null}
      </div>
      <ol className="grid min-w-0 gap-4 text-sm">
        <li className="grid gap-2">
          <span className="text-muted-foreground">
            <span className="text-foreground font-medium">1.</span> Sign in from your terminal
          </span>
          <CodeBlock code={LOGIN_SNIPPET} copyLabel="Copy login command" />
        </li>
        <li className="grid gap-2">
          <span className="text-muted-foreground">
            <span className="text-foreground font-medium">2.</span> Start a cluster and connect to it
          </span>
          <CodeBlock code={FIRST_CLUSTER_SNIPPET} label="Python" copyLabel="Copy Python snippet" />
        </li>
      </ol>
    </div>
  );
}
