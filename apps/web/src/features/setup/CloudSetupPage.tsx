import { CloudIcon } from 'lucide-react';

import { EmptyState } from '@/components/empty-state';
import { Page, PageHeader } from '@/components/page';
import { Badge } from '@/components/ui/badge';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useAwsRegionsQuery } from '@/data/cloud/aws-setup';
import { useCloudCredentialsQuery } from '@/data/cloud/cloud-credentials-query';
import { useGcpRegionsQuery } from '@/data/cloud/gcp-setup';
import { useWorkspaceBackendQuery } from '@/data/cloud/workspace-backend-query';
import { AwsCredentialsCard } from '@/features/setup/aws-credentials-card';
import { AwsDataAccessCard } from '@/features/setup/aws-data-access-card';
import { AwsNetworkCard } from '@/features/setup/aws-network-card';
import { AwsSettingsCard } from '@/features/setup/aws-settings-card';
import { GcpRegionCard } from '@/features/setup/gcp-region-card';
import { GcpSettingsCard } from '@/features/setup/gcp-settings-card';
import { AzureCredentialsCard, GcpCredentialsCard } from '@/features/setup/other-cloud-cards';
import { SlurmClusterCard } from '@/features/setup/slurm-cluster-card';
import { SshHostsCard } from '@/features/setup/ssh-hosts-card';
import { usePageMeta } from '@/lib/page-meta';
import { useWorkspace } from '@/lib/workspace';

const BACKEND_LABEL: Record<string, string> = {
  in_process: "This Cumulus server's own machine",
  vm_aws: 'AWS (EC2, your account)',
  vm_gcp: 'GCP (your project)',
  vm_azure: 'Azure (your subscription)',
  ssh: 'Your SSH hosts',
  slurm: 'Your Slurm cluster (as Slurm jobs)',
};

/**
 * The Cloud page (its `account` and `setup` routes): where the workspace's
 * clusters run. AWS in three steps (credentials or role assumption, region and network,
 * settings); GCP in two (the service account key, checked for the permissions clusters need; the
 * region, zone and network); Azure credentials; the workspace's own SSH hosts and Slurm cluster. Once AWS is set up (a machine image included) the
 * workspace is polled every 3 s until it runs on its cloud backend.
 */
export function CloudSetupPage() {
  usePageMeta({ title: 'Cloud Setup', breadcrumbs: [{ label: 'Cloud' }] });
  const { workspace } = useWorkspace();
  if (!workspace)
    return (
      <Page>
        <PageHeader title="Cloud Setup" />
        <EmptyState
          icon={CloudIcon}
          title="No workspace"
          description="Join or create a workspace to set up its cloud."
        />
      </Page>
    );
  return (
    <CloudSetup
      key={workspace.slug}
      slug={workspace.slug}
      name={workspace.name}
      isAdmin={workspace.isAdmin}
    />
  );
}

function CloudSetup({ slug, name, isAdmin }: { slug: string; name: string; isAdmin: boolean }) {
  const credentials = useCloudCredentialsQuery(slug, 'aws');
  const regions = useAwsRegionsQuery(slug);
  const home = regions.data?.regions.find((r) => r.default) ?? null;
  const gcpCredentials = useCloudCredentialsQuery(slug, 'gcp');
  const gcpRegions = useGcpRegionsQuery(slug);
  // Set up on AWS with nothing missing, or on GCP with a key and a region (also after a reload):
  // the workspace switches soon.
  const ready =
    (!!credentials.data?.configured && !!home && !home.problem) ||
    (!!gcpCredentials.data?.configured && (gcpRegions.data?.regions.length ?? 0) > 0);
  const details = useWorkspaceBackendQuery(slug, ready);
  const backend = details.data?.activeBackend ?? 'in_process';
  const polling = ready && backend === 'in_process';

  return (
    <Page>
      <PageHeader
        title="Cloud Setup"
        description={
          <>
            Where clusters of <span className="text-foreground font-medium">{name}</span> run.
          </>
        }
      />
      <div
        className="bg-card flex flex-wrap items-center gap-3 rounded-lg border p-4 text-sm"
        aria-live="polite"
      >
        <span className="text-muted-foreground">New clusters run on</span>
        <span className="font-medium">{BACKEND_LABEL[backend] ?? backend}</span>
        {details.data?.setupComplete ? <Badge variant="secondary">Setup complete</Badge> : null}
        {polling ? <span className="text-muted-foreground">Waiting for the workspace to switch…</span> : null}
        {credentials.data?.configured && home?.problem ? (
          <span className="text-warning basis-full" role="status">
            {home.problem}
          </span>
        ) : null}
      </div>
      {!isAdmin ? (
        <p className="text-muted-foreground text-sm">
          You are not an admin of {name}: ask one to change where its clusters run.
        </p>
      ) : null}
      <Tabs defaultValue="aws" className="gap-4">
        <TabsList>
          <TabsTrigger value="aws">AWS</TabsTrigger>
          <TabsTrigger value="gcp">GCP</TabsTrigger>
          <TabsTrigger value="azure">Azure</TabsTrigger>
          <TabsTrigger value="ssh">SSH hosts</TabsTrigger>
          <TabsTrigger value="slurm">Slurm</TabsTrigger>
        </TabsList>
        <TabsContent value="aws" className="grid gap-6">
          <AwsCredentialsCard account={slug} isAdmin={isAdmin} />
          <AwsNetworkCard account={slug} enabled={isAdmin && (credentials.data?.configured ?? false)} />
          {regions.data?.regions.length ? (
            <>
              <AwsSettingsCard account={slug} region={home?.region ?? null} isAdmin={isAdmin} />
              <AwsDataAccessCard account={slug} isAdmin={isAdmin} />
            </>
          ) : null}
        </TabsContent>
        <TabsContent value="gcp" className="grid gap-6">
          <GcpCredentialsCard account={slug} isAdmin={isAdmin} />
          <GcpRegionCard
            account={slug}
            project={
              gcpCredentials.data?.configured ? String(gcpCredentials.data.summary.projectId ?? '') : null
            }
            enabled={isAdmin && (gcpCredentials.data?.configured ?? false)}
          />
          {gcpRegions.data?.regions.length ? <GcpSettingsCard account={slug} isAdmin={isAdmin} /> : null}
        </TabsContent>
        <TabsContent value="azure">
          <AzureCredentialsCard account={slug} isAdmin={isAdmin} />
        </TabsContent>
        <TabsContent value="ssh">
          <SshHostsCard account={slug} isAdmin={isAdmin} />
        </TabsContent>
        <TabsContent value="slurm">
          <SlurmClusterCard account={slug} isAdmin={isAdmin} />
        </TabsContent>
      </Tabs>
    </Page>
  );
}
