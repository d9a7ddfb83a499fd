import { ArrowRightIcon, PartyPopperIcon } from 'lucide-react';
import * as React from 'react';
import { generatePath, Link } from 'react-router';
import { CreateClusterButton, useCreateTarget } from '@/components/clusters/create-cluster-button';
import { CodeBlock } from '@/components/code-block';
import { ErrorState } from '@/components/error-state';
import { LoadingSkeleton } from '@/components/loading-skeleton';
import { Page, PageHeader } from '@/components/page';
import { Button } from '@/components/ui/button';
import { useFlagsQuery } from '@/data/interactions/flags-query';
import { useGetStartedMutation } from '@/data/interactions/get-started-mutation';
import { useGetStartedQuery } from '@/data/interactions/get-started-query';
import { type ChecklistData, checklist, computedOn, isComplete } from '@/features/get-started/checklist';
import { StepCard } from '@/features/get-started/step-card';
import { errorMessage } from '@/lib/api/errors';
import { useClientCommands } from '@/lib/clusters/client-commands';
import { createClusterSnippet } from '@/lib/clusters/snippets';
import { usePageMeta } from '@/lib/page-meta';
import { paths } from '@/lib/paths';

export const COMPUTE_SNIPPET = `from dask.distributed import Client

client = Client(cluster)
print(client.submit(sum, range(100)).result())  # 4950, computed on the cluster`;

const inlineLink = 'text-foreground underline underline-offset-4';

function Progress({ done, total }: { done: number; total: number }) {
  return (
    <div className="grid gap-2">
      <div className="flex items-center justify-between text-sm">
        <span className="text-muted-foreground">Your progress</span>
        <span className="font-medium tabular-nums">
          {done} of {total} steps done
        </span>
      </div>
      <div
        role="progressbar"
        aria-label="Get Started progress"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
        className="bg-muted h-2 overflow-hidden rounded-full"
      >
        <div className="bg-primary h-full transition-[width]" style={{ width: `${(done / total) * 100}%` }} />
      </div>
    </div>
  );
}

/**
 * Get Started (the landing page until three clusters): install this server's client, sign in from
 * the terminal, create a cluster, compute on it; each step ticks itself from the flags (polled
 * every 10 s) and the checklist's record (`interactions/get-started`), which the page completes.
 */
export function GetStartedPage() {
  usePageMeta({ title: 'Get Started', breadcrumbs: [{ label: 'Get Started' }] });
  const flags = useFlagsQuery();
  const progress = useGetStartedQuery();
  const update = useGetStartedMutation();
  const commands = useClientCommands();
  const target = useCreateTarget();

  const data = (progress.data?.data ?? {}) as ChecklistData;
  const steps = flags.data && progress.data ? checklist(flags.data, data) : null;
  const complete = steps ? isComplete(steps) : false;
  const recorded = progress.data?.completed ?? false;
  // The first time every step is done, the checklist records it (the `get-started` flag).
  const { mutate, isPending, isError } = update;
  React.useEffect(() => {
    if (complete && !recorded && !isPending && !isError) mutate({ completed: true });
  }, [complete, recorded, isPending, isError, mutate]);

  const failure = flags.error ?? progress.error;
  const header = (
    <PageHeader
      title="Get Started"
      description="From nothing to a computation on a Dask cluster of this server, in four steps; a fifth, connecting your cloud, is optional."
    />
  );
  if (failure && !steps) {
    return (
      <Page>
        {header}
        <ErrorState
          title="Could not load your progress"
          message={errorMessage(failure)}
          onRetry={() => {
            void flags.refetch();
            void progress.refetch();
          }}
        />
      </Page>
    );
  }
  if (!steps) {
    return (
      <Page>
        {header}
        <LoadingSkeleton variant="cards" />
      </Page>
    );
  }
  const done = (id: (typeof steps)[number]['id']) => steps.find((step) => step.id === id)?.done ?? false;
  const required = steps.filter((step) => !step.optional);
  const computedCluster = computedOn(data);
  const python = commands.python;

  return (
    <Page className="max-w-4xl">
      {header}
      <Progress done={required.filter((step) => step.done).length} total={required.length} />
      {complete ? (
        <section
          aria-label="All set"
          className="border-success/30 bg-success/8 flex flex-wrap items-center gap-4 rounded-xl border p-4 sm:p-6"
        >
          <PartyPopperIcon className="text-success size-6 shrink-0" aria-hidden="true" />
          <div className="min-w-0 flex-1 space-y-1">
            <h2 className="font-semibold">You are all set</h2>
            <p className="text-muted-foreground text-sm">
              Your clusters, their logs and what ran on them are on the Dashboard.
            </p>
          </div>
          <Button asChild>
            <Link to={paths.clusters}>
              Go to the Dashboard
              <ArrowRightIcon aria-hidden="true" />
            </Link>
          </Button>
        </section>
      ) : null}
      <ol aria-label="Get Started steps" className="grid gap-4">
        <StepCard
          number={1}
          title="Install the Python client"
          done={done('install')}
          description={
            python ? (
              <>
                Clusters here run <code className="text-foreground font-mono text-xs">{python.path}</code>{' '}
                (Python {python.version}
                {python.distributed ? `, Dask distributed ${python.distributed}` : ''}
                {python.virtualenv ? ', a virtual environment' : ''}). Make your environment from it, so your
                Python and Dask match the cluster's
                {python.virtualenv ? " (a .pth file lends it that environment's packages)" : ''}, and install
                this server's client:
              </>
            ) : (
              "Make an environment from a Python that has Dask (the same Python and Dask versions as this server's clusters), and install this server's client:"
            )
          }
        >
          <CodeBlock code={commands.install} label="Terminal" copyLabel="Copy install commands" />
          {done('install') ? null : (
            <Button
              variant="outline"
              size="sm"
              className="justify-self-start"
              disabled={update.isPending}
              onClick={() => update.mutate({ data: { installed: true } })}
            >
              I have installed it
            </Button>
          )}
        </StepCard>
        <StepCard
          number={2}
          title="Sign in from your terminal"
          done={done('sign-in')}
          description={
            <>
              It prints a link to this console: open it and authorize the request. No browser there? Create a
              token on the{' '}
              <Link to={paths.profile} className={inlineLink}>
                Profile page
              </Link>{' '}
              and add <code className="text-foreground font-mono text-xs">--token &lt;token&gt;</code>.
            </>
          }
        >
          <CodeBlock code={commands.login} label="Terminal" copyLabel="Copy login command" />
        </StepCard>
        <StepCard
          number={3}
          title="Create your first cluster"
          done={done('cluster')}
          description={
            target.initial
              ? `A Dask scheduler and workers in ${target.initial.name}, your current workspace. Create one here, or from Python:`
              : 'A Dask scheduler and workers on this server. Create one here, or from Python:'
          }
        >
          <div className="flex flex-wrap items-center gap-3">
            <CreateClusterButton />
            {done('cluster') ? (
              <Button asChild variant="outline">
                <Link to={paths.clusters}>See it on the Dashboard</Link>
              </Button>
            ) : null}
          </div>
          <CodeBlock
            code={createClusterSnippet(target.initial?.slug ?? null)}
            label="Python"
            copyLabel="Copy create snippet"
          />
        </StepCard>
        <StepCard
          number={4}
          title="Compute on it"
          done={done('compute')}
          description={
            computedCluster !== null ? (
              <>
                Your first computation ran on{' '}
                <Link
                  to={generatePath(paths.cluster, { clusterId: String(computedCluster) })}
                  className={inlineLink}
                >
                  cluster #{computedCluster}
                </Link>
                .
              </>
            ) : (
              'Connect a Dask client and run something: this step ticks once the cluster reports a computation. (Created the cluster here? Its Overview has the lines that connect to it.)'
            )
          }
        >
          <CodeBlock code={COMPUTE_SNIPPET} label="Python" copyLabel="Copy compute snippet" />
        </StepCard>
        <StepCard
          number={5}
          title="Connect your cloud"
          optional
          done={done('cloud')}
          description="Clusters run on this server's own machine until a workspace is set up with a cloud account."
        >
          <Button asChild variant="outline" className="justify-self-start">
            <Link to={paths.setup}>Open Cloud setup</Link>
          </Button>
        </StepCard>
      </ol>
    </Page>
  );
}
