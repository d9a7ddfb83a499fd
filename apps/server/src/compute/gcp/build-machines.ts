import { createHash } from 'node:crypto';
import type { protos } from '@google-cloud/compute';
import { buildUserDataScript } from '../aws/user-data.js';
import { final } from '../backend.js';
import type { ArchiveStore, Builder, Interpreter } from '../builder.js';
import { createRemoteBuilder, type RemoteBuildJob, vmInterpreter } from '../remote-builder.js';
import type { GcePlacement } from './placement.js';

type Instance = protos.google.cloud.compute.v1.IInstance;

/** What vm_gcp's build machines need of Compute Engine (gce-backend.ts answers them with its clients). */
export interface GceMachineCalls {
  zonesOf(p: GcePlacement): Promise<string[]>;
  /** Inserts the instance in the zone and waits for its operation; an instance of that name already there is no error. */
  insert(p: GcePlacement, zone: string, instance: Instance): Promise<void>;
  /** The instances (zone and name) carrying the label `key=value`, in the placement's region. */
  labelled(p: GcePlacement, key: string, value: string): Promise<{ zone: string; name: string }[]>;
  /** Deletes an instance and waits; one already gone is no error. */
  remove(p: GcePlacement, zone: string, name: string): Promise<void>;
}

/** What a build machine is labelled and found by; every attempt of one build shares it. */
export const buildBackendId = (buildId: number) => `build-${buildId}`;

/** The machine a build of each architecture runs on when the workspace names no scheduler type of it. */
const BUILD_TYPES: Record<string, string> = { x86_64: 'e2-standard-2', aarch64: 't2a-standard-1' };

/**
 * vm_gcp's build machines, as vm_aws's (aws/build-machines.ts): one Compute Engine instance per
 * attempt of a software build, in the workspace's project and region, of the build's architecture
 * (the workspace's first scheduler type of it, else e2-standard-2 / t2a-standard-1) and booting the
 * image of that architecture its clusters boot; its startup script runs `python -m
 * cumulus.agent.build`, which uploads the environment's archive to a signed link into the
 * workspace's bucket (archives.ts; the control plane's link under workload identity), where
 * instances fetch it at boot. The machine is deleted when the build ends. It carries the
 * workspace's target tags (its network's rules) and no service account scopes of the workspace's.
 */
export function createGceBuilder(options: {
  placementOf(workspaceId: number): Promise<GcePlacement>;
  calls: GceMachineCalls;
  shapeOf(type: string): { arch: string } | undefined;
  images: { x86_64: string; arm64: string };
  labels: { backendId: string; workspace: string; role: string };
  interpreter?: () => Promise<Interpreter>;
  /** The workspaces' archive buckets (archives.ts). */
  archives?: ArchiveStore;
}): Builder {
  const { calls, labels } = options;
  return createRemoteBuilder({
    backend: 'vm_gcp',
    kinds: ['pip'],
    unpackedAtBoot: true,
    // Compiled packages are for one architecture: Arm (t2a) clusters get a build made on Arm.
    perArchitecture: true,
    ...(options.archives && { archives: options.archives }),
    interpreter: vmInterpreter(options.interpreter),
    // Instances unpack the archive themselves (python/cumulus/agent/software.py): never asked.
    pythonOf: (location) => location,
    async launch(job, log) {
      const p = await options.placementOf(job.workspaceId);
      const fallback = BUILD_TYPES[job.architecture];
      if (!fallback) throw final(`Environments cannot be built for ${job.architecture} machines on vm_gcp.`);
      const type =
        p.settings.scheduler_instance_types.find((t) => options.shapeOf(t)?.arch === job.architecture) ??
        fallback;
      const image = job.architecture === 'aarch64' ? options.images.arm64 : options.images.x86_64;
      const zones = await calls.zonesOf(p);
      const zone = p.settings.zone && zones.includes(p.settings.zone) ? p.settings.zone : zones[0];
      if (!zone) throw final(`No zone of ${p.region} to start a build machine in.`);
      log(`Build machine: ${type} (${job.architecture}) from ${image} in ${zone}`);
      await calls.insert(p, zone, buildMachine(job, p, zone, type, image, labels));
    },
    async stop(job) {
      const p = await options.placementOf(job.workspaceId);
      for (const { zone, name } of await calls.labelled(p, labels.backendId, buildBackendId(job.buildId)))
        await calls.remove(p, zone, name);
    },
  });
}

/** The instance of one attempt of a build (named by its token, so a repeated insert finds its own). */
function buildMachine(
  job: RemoteBuildJob,
  p: GcePlacement,
  zone: string,
  type: string,
  image: string,
  labels: { backendId: string; workspace: string; role: string },
): Instance {
  const backendId = buildBackendId(job.buildId);
  const attempt = createHash('sha256').update(`${backendId}|${job.token}`).digest('hex').slice(0, 8);
  return {
    name: `cumulus-build-${job.buildId}-${attempt}`,
    machineType: `zones/${zone}/machineTypes/${type}`,
    labels: {
      [labels.backendId]: backendId,
      [labels.workspace]: String(job.workspaceId),
      [labels.role]: 'build',
    },
    tags: { items: p.targetTags },
    metadata: {
      items: [
        {
          key: 'startup-script',
          value: buildUserDataScript({
            buildId: job.buildId,
            backendId,
            serverUrl: job.serverUrl,
            token: job.token,
          }),
        },
      ],
    },
    disks: [{ boot: true, autoDelete: true, initializeParams: { sourceImage: image } }],
    networkInterfaces: [
      {
        network: `global/networks/${p.network}`,
        subnetwork: `regions/${p.region}/subnetworks/${p.subnet}`,
        // The build reaches the control plane and the package index.
        accessConfigs: [{ type: 'ONE_TO_ONE_NAT', name: 'External NAT' }],
      },
    ],
  };
}
