import { createHash } from 'node:crypto';
import path from 'node:path';
import type { EC2Client, RunInstancesCommandInput } from '@aws-sdk/client-ec2';
import { final, retryable } from '../backend.js';
import type { Builder, Interpreter } from '../builder.js';
import { createRemoteBuilder, type RemoteBuildJob, vmInterpreter } from '../remote-builder.js';
import { awsCode } from './clients.js';
import type { Ec2Placement } from './placement.js';
import { classify, TAG } from './run-instances.js';
import { ec2 } from './sdk.js';
import { buildUserDataScript } from './user-data.js';

/**
 * vm_aws's build machines: one on-demand EC2 instance per software build, in the workspace's
 * account, of the build's architecture and from the workspace's cluster image of it (so
 * environments are built on the Python and the machine its clusters run), that runs `python -m cumulus.agent.build` and is terminated when the build ends.
 * It gets no instance profile: a build needs the control plane and a package index, nothing of
 * the account.
 */

/** What a build machine is tagged and found by; every attempt of one build shares it. */
export const buildBackendId = (buildId: number) => `build-${buildId}`;

/** The machine a build of each architecture runs on when the workspace names no scheduler type of it. */
const BUILD_TYPES: Record<string, string> = { x86_64: 'm6i.large', aarch64: 'm7g.large' };

/** What a build machine is launched as: its instance type and the image that type boots. */
export interface BuildMachineChoice {
  instanceType: string;
  ami: string;
}

/**
 * The build machine for a build of `architecture`: the workspace's first scheduler instance type
 * of that architecture (the catalogue's), else a general-purpose one (m6i.large, Graviton
 * m7g.large), booting the region's image of that architecture (`imageFor`, as cluster machines).
 */
export async function chooseBuildMachine(
  architecture: string,
  p: Ec2Placement,
  machines: {
    shapeOf(type: string): { arch: string } | undefined;
    imageFor(type: string): Promise<{ ami: string } | { missing: string }>;
  },
): Promise<BuildMachineChoice> {
  const fallback = BUILD_TYPES[architecture];
  if (!fallback) throw final(`Environments cannot be built for ${architecture} machines on vm_aws.`);
  const instanceType =
    p.settings.scheduler_instance_types.find((t) => machines.shapeOf(t)?.arch === architecture) ?? fallback;
  const image = await machines.imageFor(instanceType);
  if ('missing' in image)
    throw final(
      `${image.missing}: the ${architecture} build machine (${instanceType}) cannot launch. Set the image in the workspace's AWS settings.`,
    );
  return { instanceType, ami: image.ami };
}

export function buildMachineInput(
  job: RemoteBuildJob,
  p: Ec2Placement,
  machine: BuildMachineChoice,
): RunInstancesCommandInput {
  const backendId = buildBackendId(job.buildId);
  const tags = Object.entries({
    Name: `cumulus-build-${job.buildId}`,
    [TAG.backendId]: backendId,
    [TAG.workspace]: String(job.workspaceId),
    [TAG.role]: 'build',
  }).map(([Key, Value]) => ({ Key, Value }));
  const subnet = p.subnetIds[0];
  return {
    ImageId: machine.ami,
    InstanceType: machine.instanceType as RunInstancesCommandInput['InstanceType'],
    MinCount: 1,
    MaxCount: 1,
    // One machine per attempt (each attempt has a token of its own), even if the call is repeated.
    ClientToken: createHash('sha256').update(`${backendId}|${job.token}`).digest('hex').slice(0, 64),
    UserData: Buffer.from(
      buildUserDataScript({ buildId: job.buildId, backendId, serverUrl: job.serverUrl, token: job.token }),
    ).toString('base64'),
    ...(subnet && { SubnetId: subnet }),
    ...(p.securityGroupId && { SecurityGroupIds: [p.securityGroupId] }),
    TagSpecifications: [
      { ResourceType: 'instance', Tags: tags },
      { ResourceType: 'volume', Tags: tags },
    ],
  };
}

export async function launchBuildMachine(
  client: EC2Client,
  job: RemoteBuildJob,
  p: Ec2Placement,
  machine: BuildMachineChoice,
) {
  const made = await client
    .send(new ec2.RunInstancesCommand(buildMachineInput(job, p, machine)))
    .catch((err: unknown) => {
      throw classify(err);
    });
  if (!made.Instances?.[0]?.InstanceId) throw retryable('EC2 answered RunInstances without an instance.');
}

/** Terminates every machine of the build (an earlier attempt's too); none left is fine. */
export async function stopBuildMachines(client: EC2Client, buildId: number) {
  const answer = await client.send(
    new ec2.DescribeInstancesCommand({
      Filters: [
        { Name: `tag:${TAG.backendId}`, Values: [buildBackendId(buildId)] },
        { Name: 'instance-state-name', Values: ['pending', 'running', 'stopping', 'stopped'] },
      ],
    }),
  );
  const ids = (answer.Reservations ?? []).flatMap((r) => r.Instances ?? []).map((i) => i.InstanceId!);
  if (ids.length === 0) return;
  await client.send(new ec2.TerminateInstancesCommand({ InstanceIds: ids })).catch((err: unknown) => {
    if (awsCode(err) !== 'InvalidInstanceID.NotFound') throw classify(err);
  });
}

/**
 * vm_aws's builder: the remote builder with EC2 build machines. Archives are unpacked by each
 * instance at boot, kept by content hash. `interpreter` is the Python the images are taken to
 * have (the server's own, where the operator says the images match); its dashboard requirement is
 * dropped, since vm_aws images serve the dashboard themselves.
 */
export function createEc2Builder(options: {
  placementOf(workspaceId: number): Promise<Ec2Placement>;
  clientOf(workspaceId: number, p: Ec2Placement): EC2Client;
  /** The catalogue's machine of an instance type (its architecture). */
  shapeOf(type: string): { arch: string } | undefined;
  /** The image a type boots in the placement's region (the backend's, as for cluster machines). */
  imageFor(client: EC2Client, p: Ec2Placement, type: string): Promise<{ ami: string } | { missing: string }>;
  interpreter?: () => Promise<Interpreter>;
}): Builder {
  const machine = async (workspaceId: number) => {
    const p = await options.placementOf(workspaceId);
    return { p, client: options.clientOf(workspaceId, p) };
  };
  return createRemoteBuilder({
    backend: 'vm_aws',
    kinds: ['pip'],
    unpackedAtBoot: true,
    // Compiled packages are for one architecture: arm64 clusters get a build made on arm64.
    perArchitecture: true,
    interpreter: vmInterpreter(options.interpreter),
    // Where the agent unpacks it (python/cumulus/agent/software.py), named by its content hash.
    pythonOf: (location) =>
      path.posix.join(
        '/var/lib/cumulus/environments',
        path.basename(location).replace(/^env-|\.tar\.gz$/g, ''),
        'bin/python',
      ),
    async launch(job, log) {
      const { p, client } = await machine(job.workspaceId);
      const choice = await chooseBuildMachine(job.architecture, p, {
        shapeOf: options.shapeOf,
        imageFor: (type) => options.imageFor(client, p, type),
      });
      log(`Build machine: ${choice.instanceType} (${job.architecture}) from ${choice.ami} in ${p.region}`);
      await launchBuildMachine(client, job, p, choice);
    },
    async stop(job) {
      const { client } = await machine(job.workspaceId);
      await stopBuildMachines(client, job.buildId);
    },
  });
}
