import { EventEmitter } from 'node:events';
import { type Links, lastSegments, MACHINE_TYPES, newId, regionOf } from './catalog.js';
import { guestAccelerators } from './gpus.js';
import { alreadyExists, badRequest, notFound, type Operation, type Operations } from './operations.js';

export type Instance = Record<string, unknown> & {
  id: string;
  name: string;
  status: string;
  labels?: Record<string, string>;
  metadata: { kind: string; fingerprint: string; items?: { key: string; value: string }[] };
  networkInterfaces: { networkIP: string; accessConfigs?: { natIP?: string }[] }[];
  scheduling: Record<string, unknown>;
};

const NAME = /^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$/;

/** Public images the rig knows (Debian's, per architecture), by project and name; families point at one. */
const IMAGES: Record<string, { name: string; family: string; architecture: 'X86_64' | 'ARM64' }[]> = {
  'debian-cloud': [
    { name: 'debian-12-bookworm-v20250610', family: 'debian-12', architecture: 'X86_64' },
    { name: 'debian-12-bookworm-arm64-v20250610', family: 'debian-12-arm64', architecture: 'ARM64' },
  ],
  // Google's Deep Learning VM base image (CUDA 12.4, NVIDIA's driver installed at first boot).
  'deeplearning-platform-release': [
    {
      name: 'common-cu124-v20250325-debian-11-py310',
      family: 'common-cu124-debian-11-py310',
      architecture: 'X86_64',
    },
  ],
};

function imageOf(source: string) {
  // A family is named `global/images/family/F` or, as newer gcloud writes it, `zones/-/imageFamilyViews/F`.
  const m =
    /(?:^|\/)projects\/([^/]+)\/(?:global\/images\/(family\/)?|zones\/[^/]+\/(imageFamilyViews)\/)([^/]+)$/.exec(
      source,
    );
  const found = m && IMAGES[m[1]!]?.find((i) => (m[2] || m[3] ? i.family : i.name) === m[4]);
  if (!found) throw notFound(source.replace(/^.*?(projects\/)/, '$1'));
  return found;
}

/**
 * The project's instances: insert (checked as Compute Engine checks them: name, machine type in
 * its zone, one boot disk whose image's architecture is the type's, GPUs (gpus.ts), a network
 * interface), get,
 * list, aggregated list, delete. `running` and `deleted` are emitted as an instance starts and
 * goes, for the machines that play the VMs.
 */
export class Instances extends EventEmitter<{ running: [Instance, string]; deleted: [Instance, string] }> {
  readonly #byZone = new Map<string, Map<string, Instance>>();
  /** Zones out of capacity (`exhaust`): inserts there fail as Compute Engine's do. */
  readonly exhausted = new Set<string>();
  /** Instances lists leave out (by name), as a list may lag an insert that Compute Engine has made. */
  readonly unlisted = new Set<string>();
  /**
   * Each insert's request body by instance name: what was asked that an instance does not show
   * (its boot disk's image is the disk's, and the rig plays no disks).
   */
  readonly inserted = new Map<string, Record<string, unknown>>();
  #nextAddress = 2;

  constructor(
    readonly links: Links,
    readonly operations: Operations,
    /** The first three octets of the subnet's range (the rig's VPC lies in loopback, so VMs need no address added). */
    readonly subnetPrefix: string,
  ) {
    super();
  }

  zoneOf(zone: string): Map<string, Instance> {
    const instances = this.#byZone.get(zone) ?? new Map<string, Instance>();
    this.#byZone.set(zone, instances);
    return instances;
  }

  all(): [string, Instance][] {
    return [...this.#byZone].flatMap(([zone, m]) =>
      [...m.values()].map((i) => [zone, i] as [string, Instance]),
    );
  }

  get(zone: string, name: string): Instance {
    const found = this.zoneOf(zone).get(name);
    if (!found) throw notFound(`projects/${this.links.project}/zones/${zone}/instances/${name}`);
    return found;
  }

  insert(zone: string, body: Record<string, unknown>): Operation {
    const name = body.name as string | undefined;
    if (!name || !NAME.test(name))
      throw badRequest(
        `Invalid value for field 'resource.name': '${name ?? ''}'. Must be a match of regex '(?:[a-z](?:[-a-z0-9]{0,61}[a-z0-9])?)'`,
      );
    const link = `${this.links.zone(zone)}/instances/${name}`;
    if (this.zoneOf(zone).has(name))
      throw alreadyExists(`projects/${this.links.project}/zones/${zone}/instances/${name}`);
    const typeUrl = (body.machineType as string | undefined) ?? '';
    const [typeZone, , typeName] = lastSegments(typeUrl, 3);
    const type = MACHINE_TYPES.find((t) => t.name === typeName && (!t.zones || t.zones.includes(zone)));
    if (!type || typeZone !== zone)
      throw badRequest(
        `Invalid value for field 'resource.machineType': '${typeUrl}'. Machine type with name '${typeName ?? ''}' does not exist in zone '${zone}'.`,
      );
    const disks = (body.disks as Record<string, unknown>[] | undefined) ?? [];
    const boot = disks.filter((d) => d.boot);
    if (boot.length !== 1)
      throw badRequest("Invalid value for field 'resource.disks': ''. Boot disk must be specified.");
    const params = (boot[0]!.initializeParams ?? {}) as Record<string, unknown>;
    const image = imageOf(String(params.sourceImage ?? ''));
    if (image.architecture !== type.architecture)
      throw badRequest(
        `Invalid resource usage: 'Requested boot disk architecture (${image.architecture}) is not compatible with machine type architecture (${type.architecture}).'`,
        'invalidResourceUsage',
      );
    const accelerators = guestAccelerators(this.links, zone, type, body);
    const nics = (body.networkInterfaces as Record<string, unknown>[] | undefined) ?? [];
    if (nics.length === 0)
      throw badRequest(
        "Invalid value for field 'resource.networkInterfaces': ''. At least one network interface is required.",
      );
    const n = this.#nextAddress++;
    const id = newId();
    const scheduling = (body.scheduling as Record<string, unknown> | undefined) ?? {};
    const spot = scheduling.provisioningModel === 'SPOT';
    const instance: Instance = {
      ...body,
      kind: 'compute#instance',
      id,
      name,
      creationTimestamp: new Date().toISOString(),
      status: 'PROVISIONING',
      zone: this.links.zone(zone),
      machineType: `${this.links.zone(zone)}/machineTypes/${type.name}`,
      selfLink: link,
      cpuPlatform: type.architecture === 'ARM64' ? 'Ampere Altra' : 'Intel Cascade Lake',
      fingerprint: newId().slice(-12),
      labelFingerprint: newId().slice(-12),
      metadata: {
        kind: 'compute#metadata',
        fingerprint: newId().slice(-12),
        ...((body.metadata as object | undefined) ?? {}),
      },
      ...(accelerators.length && { guestAccelerators: accelerators }),
      scheduling: {
        onHostMaintenance: spot ? 'TERMINATE' : 'MIGRATE',
        automaticRestart: !spot,
        preemptible: false,
        ...scheduling,
      },
      disks: disks.map((d, index) => ({
        kind: 'compute#attachedDisk',
        type: 'PERSISTENT',
        mode: 'READ_WRITE',
        source: `${this.links.zone(zone)}/disks/${name}${index ? `-${index}` : ''}`,
        deviceName: (d.deviceName as string | undefined) ?? (index ? `persistent-disk-${index}` : name),
        index,
        boot: Boolean(d.boot),
        autoDelete: d.autoDelete ?? true,
        interface: 'SCSI',
        diskSizeGb: String((d.initializeParams as { diskSizeGb?: string } | undefined)?.diskSizeGb ?? 10),
        architecture: image.architecture,
      })),
      networkInterfaces: nics.map((nic, i) => ({
        kind: 'compute#networkInterface',
        network: this.links.global('networks', lastSegments(String(nic.network ?? 'default'), 1)[0]!),
        subnetwork: `${this.links.region(regionOf(zone))}/subnetworks/default`,
        networkIP: `${this.subnetPrefix}.${n}`,
        name: `nic${i}`,
        fingerprint: newId().slice(-12),
        stackType: 'IPV4_ONLY',
        accessConfigs: ((nic.accessConfigs as Record<string, unknown>[] | undefined) ?? []).map((a) => ({
          kind: 'compute#accessConfig',
          type: 'ONE_TO_ONE_NAT',
          name: (a.name as string | undefined) ?? 'External NAT',
          // No NAT is played: the external address is the internal one (both reach the VM here).
          natIP: `${this.subnetPrefix}.${n}`,
          networkTier: 'PREMIUM',
        })),
      })),
    };
    this.zoneOf(zone).set(name, instance);
    this.inserted.set(name, body);
    return this.operations.start({ zone }, 'insert', { link, id }, () => {
      if (this.exhausted.has(zone)) {
        // The operation fails and no instance is left, as on Google when a zone has no capacity.
        this.zoneOf(zone).delete(name);
        throw {
          code: 'ZONE_RESOURCE_POOL_EXHAUSTED',
          status: 503,
          message: `The zone 'projects/${this.links.project}/zones/${zone}' does not have enough resources available to fulfill the request.  Try a different zone, or try again later.`,
        };
      }
      instance.status = 'RUNNING';
      instance.lastStartTimestamp = new Date().toISOString();
      this.emit('running', instance, zone);
    });
  }

  delete(zone: string, name: string): Operation {
    const instance = this.get(zone, name);
    instance.status = 'STOPPING';
    return this.operations.start(
      { zone },
      'delete',
      { link: instance.selfLink as string, id: instance.id },
      () => {
        this.zoneOf(zone).delete(name);
        this.emit('deleted', instance, zone);
      },
    );
  }

  /**
   * Compute Engine takes a Spot VM back: its metadata says `preempted`, and it stops (TERMINATED)
   * or is deleted, as its `instanceTerminationAction` says, after `noticeMs` (30 s on Google).
   */
  preempt(zone: string, name: string, noticeMs: number): void {
    const instance = this.get(zone, name);
    instance.preempted = true;
    setTimeout(() => {
      if (instance.scheduling.instanceTerminationAction === 'DELETE') this.zoneOf(zone).delete(name);
      else instance.status = 'TERMINATED';
      this.emit('deleted', instance, zone);
    }, noticeMs);
  }
}
