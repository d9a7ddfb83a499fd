import { DescribeInstancesCommand } from '@aws-sdk/client-ec2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AwsRig, openAwsRig } from './helpers/aws-rig.js';
import { waitFor, waitForClusterState } from './helpers/clusters.js';

/** `cluster_timeout` on vm_aws: the cluster's EC2 machines run, and are terminated once it has run that long. */
let rig: AwsRig;

beforeAll(async () => {
  rig = await openAwsRig();
}, 600_000); // may wait for another file's VMs (Ec2Machines.open)

afterAll(async () => {
  await rig?.close();
});

describe('cluster_timeout on vm_aws', () => {
  it('stops a running cluster that long after its creation and terminates its instances, saying why', async () => {
    const { api, slug } = rig;
    const created = await api.post(`/api/v2/clusters/account/${slug}/`, {
      name: 'short-lived',
      workers: 1,
      cluster_timeout_seconds: 60,
    });
    expect(created.status, created.text).toBe(201);
    const startedAt = Date.now();
    await waitForClusterState(api, slug, created.body.id, 'ready', 55_000);
    const running = await rig.machines.running();
    expect(running.size).toBe(2);

    const stopped = await waitFor(
      'the cluster to stop',
      async () => {
        const d = await api.get(`/api/v2/clusters/account/${slug}/id/${created.body.id}`);
        return d.body.current_state.state === 'stopped' ? d.body : undefined;
      },
      120_000,
    );
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(59_000);
    expect(stopped.current_state.reason).toBe('Cluster ran for its cluster_timeout of 60 s');
    const answer = await rig.ec2().send(
      new DescribeInstancesCommand({
        Filters: [{ Name: 'tag:cumulus:role', Values: ['scheduler', 'worker'] }],
      }),
    );
    const states = answer.Reservations?.flatMap((r) => r.Instances ?? []).map((i) => i.State?.Name);
    expect(states).toEqual(['terminated', 'terminated']);
    await waitFor('the machines gone', async () => (await rig.machines.running()).size === 0);
  }, 300_000);
});
