import { DownloadIcon, RefreshCwIcon } from 'lucide-react';
import { useNavigate, useParams, useSearchParams } from 'react-router';

import { ErrorState } from '@/components/error-state';
import { LoadingSkeleton } from '@/components/loading-skeleton';
import { Page, PageHeader } from '@/components/page';
import { StateChip } from '@/components/state-chip';
import { Button } from '@/components/ui/button';
import { useAliasQuery } from '@/data/software/alias-query';
import type { Spec } from '@/data/software/aliases-query';
import { useBuildQuery } from '@/data/software/build-query';
import { type CreateSpecBody, useSpecCreateMutation } from '@/data/software/spec-create-mutation';
import { useSpecQuery } from '@/data/software/spec-query';
import {
  BuildLogsTab,
  InstalledTab,
  LocalEnvironmentTab,
  RequirementsTab,
} from '@/features/software/build-tabs';
import { errorMessage } from '@/lib/api/errors';
import { usePageMeta } from '@/lib/page-meta';
import { paths } from '@/lib/paths';
import { useSignedIn } from '@/lib/signed-in';
import { aliasLink } from '@/lib/software/links';
import { cn } from '@/lib/utils';

/** A build is polled every 2 s until it is built or failed. */
const BUILD_POLL_MS = 2_000;
const TABS = [
  { id: 'scan', label: 'Local Environment' },
  { id: 'details', label: 'Requirements' },
  { id: 'logs', label: 'Build Logs' },
  { id: 'installed', label: 'Installed' },
] as const;
type Tab = (typeof TABS)[number]['id'];

/** `.../build/{buildId}`: a build's status, what it was asked for, its log and what it installed. */
export function BuildPage() {
  const params = useParams();
  const account = params.accountSlug ?? '';
  const aliasRef = { account, id: Number(params.aliasId) };
  const buildRef = { account, id: Number(params.buildId) };
  const [search, setSearch] = useSearchParams();
  const alias = useAliasQuery(aliasRef);
  const build = useBuildQuery(buildRef, {
    refetchInterval: (query) =>
      query.state.data?.state === 'built' || query.state.data?.state === 'error' ? false : BUILD_POLL_MS,
  });
  const spec = useSpecQuery(build.data ? { account, id: build.data.specId } : null);
  const name = alias.data?.name ?? `#${aliasRef.id}`;
  usePageMeta({
    title: `Software Environments - ${name}`,
    breadcrumbs: [
      { label: 'Software Environments', to: paths.software },
      { label: name, to: aliasLink({ id: aliasRef.id, accountSlug: account }) },
      { label: 'build' },
    ],
  });

  if (build.isError || spec.isError)
    return (
      <Page>
        <ErrorState
          title="Could not load this build"
          message={errorMessage(build.error ?? spec.error)}
          onRetry={() => void build.refetch()}
        />
      </Page>
    );
  if (build.isPending || spec.isPending)
    return (
      <Page>
        <LoadingSkeleton variant="page" />
      </Page>
    );

  const built = build.data.state === 'built';
  const asked = search.get('tab');
  const tab: Tab =
    TABS.some((t) => t.id === asked) && (asked !== 'installed' || built)
      ? (asked as Tab)
      : built
        ? 'installed'
        : 'details';
  const select = (next: Tab) =>
    setSearch(
      (current) => {
        const out = new URLSearchParams(current);
        out.set('tab', next);
        return out;
      },
      { replace: true },
    );

  return (
    <Page>
      <PageHeader
        title={`${name} · build #${build.data.id}`}
        description={`Spec #${build.data.specId} · ${build.data.backendType}${build.data.archived ? ' · archived' : ''}`}
        actions={
          <>
            {built && !build.data.archived ? (
              <Button variant="outline" asChild>
                <a
                  href={`/api/v2/software-environment/account/${account}/build/${build.data.id}/lockfile`}
                  download
                >
                  <DownloadIcon />
                  Lockfile
                </a>
              </Button>
            ) : null}
            <RebuildButton
              account={account}
              aliasName={name}
              aliasId={aliasRef.id}
              state={build.data.state}
              spec={spec.data}
            />
          </>
        }
      />
      <div className="flex flex-col gap-6 md:flex-row">
        <nav aria-label="Build" className="flex shrink-0 flex-row flex-wrap gap-1 md:w-48 md:flex-col">
          {TABS.map((t) => {
            const disabled = t.id === 'installed' && !built;
            return (
              <Button
                key={t.id}
                variant="ghost"
                size="sm"
                disabled={disabled}
                aria-current={tab === t.id ? 'page' : undefined}
                className={cn('justify-start', tab === t.id && 'bg-muted text-foreground')}
                onClick={() => select(t.id)}
              >
                {t.label}
              </Button>
            );
          })}
          <section className="mt-2 flex flex-col gap-1 md:border-t md:pt-3" aria-label="Status">
            <StateChip state={build.data.archived ? 'archived' : build.data.state} />
            {build.data.reason ? (
              <p className="text-muted-foreground max-w-xs text-xs break-words" data-testid="build-reason">
                {build.data.reason}
              </p>
            ) : null}
          </section>
        </nav>
        <div className="min-w-0 flex-1">
          {tab === 'scan' ? (
            <LocalEnvironmentTab spec={spec.data} creator={alias.data?.creator?.username ?? null} />
          ) : null}
          {tab === 'details' ? <RequirementsTab spec={spec.data} /> : null}
          {tab === 'logs' ? <BuildLogsTab account={account} build={build.data} /> : null}
          {tab === 'installed' && built ? <InstalledTab build={build.data} spec={spec.data} /> : null}
        </div>
      </div>
    </Page>
  );
}

/** Staff only, on errored builds: builds the spec again. */
function RebuildButton({
  account,
  aliasName,
  aliasId,
  state,
  spec,
}: {
  account: string;
  aliasName: string;
  aliasId: number;
  state: string;
  spec: Spec;
}) {
  const { user } = useSignedIn();
  const navigate = useNavigate();
  const rebuild = useSpecCreateMutation({
    onSuccess: () => navigate(aliasLink({ id: aliasId, accountSlug: account })),
    // A failure is only logged; the button comes back.
    onError: (error) => console.error('Rebuild failed', error),
  });
  if (!user.isStaff || state !== 'error') return null;
  return (
    <Button
      variant="outline"
      disabled={rebuild.isPending}
      onClick={() =>
        rebuild.mutate({
          account,
          body: {
            name: aliasName,
            md5: spec.md5,
            force_rebuild: true,
            enable_experimental_installer: true,
            architecture: spec.architecture === 'aarch64' ? 'aarch64' : 'x86_64',
            gpu_enabled: spec.gpuEnabled,
            raw_pip: spec.rawPip,
            raw_conda: spec.rawConda as CreateSpecBody['raw_conda'],
            container: spec.containerUri,
            packages: spec.packages.map((p) => ({
              name: p.name,
              source: p.source,
              channel: p.channel,
              conda_name: p.condaName,
              specifier: p.specifier,
              include: p.include,
              client_version: p.clientVersion,
              file: p.file?.id ?? null,
            })),
          },
        })
      }
    >
      <RefreshCwIcon />
      {rebuild.isPending ? 'Rebuilding...' : 'Rebuild (Staff)'}
    </Button>
  );
}
