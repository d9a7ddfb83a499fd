export type CloudProvider = 'aws' | 'gcp' | 'azure';

export const cloudKeys = {
  all: ['cloud'] as const,
  config: () => [...cloudKeys.all, 'config'] as const,
  credentials: (account: string, provider: CloudProvider) =>
    [...cloudKeys.all, account, 'credentials', provider] as const,
  attempt: (account: string, id: number) => [...cloudKeys.all, account, 'cf-attempt', id] as const,
  awsSetup: (account: string) => [...cloudKeys.all, account, 'aws'] as const,
  awsGlobal: (account: string) => [...cloudKeys.awsSetup(account), 'global'] as const,
  awsRegions: (account: string) => [...cloudKeys.awsSetup(account), 'regions'] as const,
  awsSettings: (account: string) => [...cloudKeys.awsSetup(account), 'settings'] as const,
  gcpSetup: (account: string) => [...cloudKeys.all, account, 'gcp'] as const,
  gcpRegions: (account: string) => [...cloudKeys.gcpSetup(account), 'regions'] as const,
  gcpSettings: (account: string) => [...cloudKeys.gcpSetup(account), 'settings'] as const,
  available: (account: string, what: string, region: string, vpcId?: string) =>
    [...cloudKeys.awsSetup(account), 'available', what, region, vpcId ?? null] as const,
  workspaceBackend: (account: string) => [...cloudKeys.all, account, 'workspace-backend'] as const,
  sshHosts: (account: string) => [...cloudKeys.all, account, 'ssh-hosts'] as const,
  slurmClusters: (account: string) => [...cloudKeys.all, account, 'slurm-clusters'] as const,
  vmTypes: (backendType: string) => [...cloudKeys.all, 'vm-types', backendType] as const,
};
