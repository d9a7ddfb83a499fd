import { describe, expect, it } from 'vitest';

import {
  createClusterBody,
  createClusterSchema,
  defaultValues,
  suggestedName,
} from '@/lib/clusters/create-cluster-form';
import { stopCheck } from '@/lib/clusters/permissions';
import { clusterPollMs, clusterStateSentence, dashboardPollMs } from '@/lib/clusters/states';
import { durationInWords, formatDuration, runtimeSeconds } from '@/lib/format';
import type { SignedIn } from '@/lib/signed-in';

const acme = { id: 7, slug: 'acme', name: 'Acme', organization: { id: 3 } };
const signedIn = (isAdmin: boolean, orgRole: 'admin' | 'member' = 'member') =>
  ({
    user: { id: 1, username: 'ada', isStaff: false },
    workspaceMemberships: [{ account: acme, isAdmin }],
    organizationMemberships: [{ organizationId: 3, role: orgRole }],
  }) as unknown as SignedIn;
const cluster = (state: string, creatorId: number, account = acme) => ({
  name: 'etl',
  creator: { id: creatorId, username: 'x' },
  account: { id: account.id, slug: account.slug, name: account.name },
  currentState: { state: state as 'ready', reason: '', updated: '' },
});

describe('who may stop a cluster (mirrors the server)', () => {
  it('lets the creator, workspace admins and organization admins stop a live cluster', () => {
    expect(stopCheck(cluster('ready', 1), signedIn(false))).toEqual({ allowed: true });
    expect(stopCheck(cluster('starting', 2), signedIn(true))).toEqual({ allowed: true });
    expect(stopCheck(cluster('ready', 2), signedIn(false, 'admin'))).toEqual({ allowed: true });
    expect(stopCheck(cluster('ready', 2), signedIn(false))).toEqual({
      allowed: false,
      reason: 'Only the creator of etl and admins of Acme can stop it.',
    });
  });

  it('says so when there is nothing left to stop', () => {
    expect(stopCheck(cluster('stopping', 1), signedIn(true))).toEqual({
      allowed: false,
      reason: 'etl is already stopping.',
    });
    expect(stopCheck(cluster('stopped', 1), signedIn(true))).toEqual({
      allowed: false,
      reason: 'etl is stopped: there is nothing left to stop.',
    });
    expect(stopCheck(cluster('error', 1), signedIn(true))).toEqual({
      allowed: false,
      reason: 'etl failed: there is nothing left to stop.',
    });
  });

  it('leaves clusters of workspaces seen through organization rights to the server', () => {
    const other = { id: 99, slug: 'other', name: 'Other', organization: { id: 3 } };
    expect(stopCheck(cluster('ready', 2, other), signedIn(false, 'admin'))).toEqual({ allowed: true });
  });
});

describe('Create cluster', () => {
  it('sends every key of the contract body, null where the console has nothing to say', () => {
    const input = createClusterSchema.parse({
      workspace: 'acme',
      name: 'etl-nightly',
      workers: '3',
      idleTimeout: '1 hour',
      envName: '',
      tags: [
        { key: 'team', value: 'ml' },
        { key: '', value: '' },
        { key: 'cost_center', value: '' },
      ],
    });
    const body = createClusterBody(input);
    expect(body).toMatchObject({
      name: 'etl-nightly',
      workers: 3,
      scheduler_options: { idle_timeout: '1 hour' },
      tags: { team: 'ml', cost_center: '' },
      environ: {},
      worker_options: {},
      dask_config: {},
      use_aws_creds_endpoint: false,
      extra_user_container_ignore_entrypoint: false,
      env_name: null,
      batch_job_ids: null,
    });
    // In a cloud workspace: the picked worker type, and spot workers falling back to on demand.
    const cloud = createClusterBody({ ...input, workerInstanceType: 'm5.xlarge', spot: true }, true);
    expect(cloud.worker_instance_types).toEqual(['m5.xlarge']);
    expect(cloud.options).toEqual({ spot: true, spot_on_demand_fallback: true });
    // The switch off says so: the workspace's settings may run spot by default.
    expect(createClusterBody({ ...input, spot: false }, true).options).toEqual({ spot: false });
    expect(body.options).toBeUndefined();
    expect(body.worker_instance_types).toBeNull();
    // A picked environment is sent by name; none leaves the server's Python.
    expect(createClusterBody({ ...input, envName: 'analysis' }).env_name).toBe('analysis');
    // As established clients send it: all keys present, `options` and `local_versions` only when non-empty.
    expect(Object.keys(body).sort()).toEqual(
      [
        'name',
        'workers',
        'worker_instance_types',
        'scheduler_instance_types',
        'worker_options',
        'worker_class',
        'worker_disk_size',
        'worker_disk_throughput',
        'worker_disk_config',
        'scheduler_disk_size',
        'scheduler_disk_config',
        'scheduler_options',
        'environ',
        'tags',
        'dask_config',
        'private_to_creator',
        'env_id',
        'env_name',
        'extra_worker_on_scheduler',
        'n_worker_specs_per_host',
        'use_aws_creds_endpoint',
        'custom_subdomain',
        'batch_job_ids',
        'extra_user_container',
        'extra_user_container_ignore_entrypoint',
        'scheduler_sidecars',
        'worker_sidecars',
        'host_setup_script',
        'pause_on_exit',
        'cluster_timeout_seconds',
        'coiled_cloud_env_image',
        'filestores_to_attach',
      ].sort(),
    );
  });

  it('checks the name, the workers and the tags with readable messages', () => {
    const errors = (values: Record<string, unknown>) =>
      createClusterSchema
        .safeParse({ ...defaultValues('acme'), ...values })
        .error?.issues.map((issue) => issue.message) ?? [];
    expect(errors({})).toEqual([]);
    expect(errors({ name: ' ' })).toEqual(['Cluster name is required']);
    expect(errors({ name: '-etl' })).toEqual([
      'Use letters, digits, ".", "_" and "-", starting with a letter or digit.',
    ]);
    expect(errors({ name: 'a'.repeat(101) })).toEqual(['Cluster names are limited to 100 characters']);
    expect(errors({ workers: '1001' })).toEqual(['Workers must be a whole number from 0 to 1000']);
    expect(errors({ workers: '2.5' })).toEqual(['Workers must be a whole number from 0 to 1000']);
    expect(
      errors({
        tags: [
          { key: 'team', value: 'a' },
          { key: 'team', value: 'b' },
          { key: '', value: 'orphan' },
        ],
      }),
    ).toEqual(['Tag team is already set', 'Give this tag a key']);
  });

  it('suggests a name the way the Python client does', () => {
    expect(suggestedName('acme')).toMatch(/^acme-[0-9a-f]{8}$/);
    expect(defaultValues('acme')).toMatchObject({ workers: '4', idleTimeout: '20 minutes' });
  });
});

describe('times and polling', () => {
  it('formats runtimes and timeouts', () => {
    expect(formatDuration(5)).toBe('5s');
    expect(formatDuration(185)).toBe('3m 05s');
    expect(formatDuration(2 * 3600 + 14 * 60)).toBe('2h 14m');
    expect(formatDuration(3 * 86_400 + 4 * 3600)).toBe('3d 4h');
    expect(durationInWords(1200)).toBe('20 minutes');
    expect(durationInWords(5400)).toBe('1 hour 30 minutes');
  });

  it('counts runtime until now, or until the cluster stopped', () => {
    const created = '2030-01-01T00:00:00.000000+00:00';
    const updated = '2030-01-01T00:10:00.000000+00:00';
    const now = Date.parse('2030-01-01T01:00:00Z');
    expect(runtimeSeconds({ created, currentState: { state: 'ready', updated } }, now)).toBe(3600);
    expect(runtimeSeconds({ created, currentState: { state: 'stopped', updated } }, now)).toBe(600);
  });

  it('refreshes quickly while something changes, and never once a cluster is over', () => {
    const row = (state: string) => ({ currentState: { state } });
    expect(dashboardPollMs([row('ready'), row('starting')])).toBe(3000);
    expect(dashboardPollMs([row('ready'), row('stopped')])).toBe(30_000);
    expect(clusterPollMs('stopping')).toBe(3000);
    expect(clusterPollMs('ready')).toBe(10_000);
    expect(clusterPollMs('stopped')).toBe(false);
    expect(clusterPollMs(undefined)).toBe(3000);
  });
});

describe('a cluster state in a sentence', () => {
  it('reads "failed" for an errored cluster, not "is error"', () => {
    expect(clusterStateSentence('console-demo', 'error')).toBe('console-demo failed');
    expect(clusterStateSentence('console-demo', 'stopped')).toBe('console-demo is stopped');
  });
});
