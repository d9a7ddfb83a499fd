import * as React from 'react';
import { generatePath, useParams, useSearchParams } from 'react-router';

import { ErrorState } from '@/components/error-state';
import { LoadingSkeleton } from '@/components/loading-skeleton';
import { Page, PageHeader } from '@/components/page';
import { useClusterDetailsQuery } from '@/data/clusters/cluster-details-query';
import { errorMessage } from '@/lib/api/errors';
import { clusterLink } from '@/lib/clusters/links';
import { clusterStateSentence } from '@/lib/clusters/states';
import { usePageMeta } from '@/lib/page-meta';
import { paths } from '@/lib/paths';
import { useSignedIn } from '@/lib/signed-in';
import { ACCOUNT_PARAM } from '@/lib/workspace';

/** Where the Notebooks page's Open goes: this page, in a new tab, then on to Jupyter. */
export function openNotebookLink(notebook: { id: number; account: { slug: string } }) {
  const search = new URLSearchParams({ [ACCOUNT_PARAM]: notebook.account.slug });
  return `${generatePath(paths.notebookOpen, { clusterId: String(notebook.id) })}?${search}`;
}

/** Why another member's notebook has no Open: its Jupyter runs code as the one who started it. */
export const NOT_YOURS = 'Only the member who started a notebook can open its Jupyter: it runs code as them.';

const ENDED = ['stopping', 'stopped', 'error', 'pausing', 'paused'];

/**
 * Opens a notebook's Jupyter: the cluster details answer the reader's own link (it carries their
 * pass, as the dashboard link does), asked for here so it is fresh; until Jupyter serves, says so.
 */
export function OpenNotebookPage() {
  const { clusterId } = useParams();
  const [search] = useSearchParams();
  const account = search.get(ACCOUNT_PARAM) ?? '';
  const id = Number(clusterId);
  usePageMeta({
    title: 'Open notebook',
    breadcrumbs: [{ label: 'Notebooks', to: paths.notebooks }, { label: 'Open' }],
  });
  const me = useSignedIn().user.id;
  // Another member's notebook never gets a link (its Jupyter is its creator's alone): no waiting for one.
  const theirs = (creator: { id: number } | null | undefined) => creator?.id !== me;
  const details = useClusterDetailsQuery(
    { ref: account && Number.isInteger(id) ? { account, id } : null },
    {
      refetchInterval: (query) =>
        query.state.data?.scheduler?.jupyterAddress || theirs(query.state.data?.creator) ? false : 2000,
    },
  );
  const address = details.data?.scheduler?.jupyterAddress;
  React.useEffect(() => {
    if (address) window.location.replace(address);
  }, [address]);
  const state = details.data?.currentState.state;

  let body: React.ReactNode;
  if (details.error)
    body = (
      <ErrorState
        title="Could not open the notebook"
        message={errorMessage(details.error)}
        onRetry={() => void details.refetch()}
        retrying={details.isFetching}
      />
    );
  else if (!details.data || address) body = <LoadingSkeleton variant="page" />;
  else if (theirs(details.data.creator))
    body = (
      <p className="text-muted-foreground text-sm" role="status">
        {details.data.name} is {details.data.creator?.username ?? 'another member'}'s notebook. {NOT_YOURS}
      </p>
    );
  else
    body = (
      <p className="text-muted-foreground text-sm" role="status">
        {state && ENDED.includes(state)
          ? `${clusterStateSentence(details.data.name, state)}: start it again with New notebook.`
          : `${details.data.name} is ${state}; Jupyter opens here as soon as it serves. If it does not, the `}
        {state && ENDED.includes(state) ? null : (
          <>
            <a className="underline" href={clusterLink({ id, account: { slug: account } }, 'logs')}>
              cluster's logs
            </a>{' '}
            say why (Jupyter must be installed in its software: jupyterlab from the package index, or Debian's
            python3-notebook).
          </>
        )}
      </p>
    );
  return (
    <Page>
      <PageHeader title={details.data ? `Opening ${details.data.name}` : 'Opening notebook'} />
      {body}
    </Page>
  );
}
