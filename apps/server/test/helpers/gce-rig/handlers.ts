import { ACCELERATOR_TYPES, type Links, MACHINE_TYPES, REGIONS, regionOf } from './catalog.js';
import type { Firewalls } from './firewalls.js';
import type { Instances } from './instances.js';
import { matcher, page } from './lists.js';
import { notFound, type Operations, type Scope } from './operations.js';

type Params = Record<string, string>;
type Handler = (params: Params, query: Params, body: Record<string, unknown> | undefined) => unknown;

const ZONE_IDS = new Map(
  Object.values(REGIONS)
    .flat()
    .map((z, i) => [z, String(2000 + i)]),
);

/**
 * What each Compute Engine method the rig plays answers, by `Service.Method` (the proto's names).
 * A method Compute Engine has but the rig does not play is answered 501 by the server.
 */
export function handlers(links: Links, instances: Instances, firewalls: Firewalls, operations: Operations) {
  const zone = (name: string) => {
    if (!ZONE_IDS.has(name)) throw notFound(`projects/${links.project}/zones/${name}`);
    return {
      kind: 'compute#zone',
      id: ZONE_IDS.get(name),
      creationTimestamp: '1969-12-31T16:00:00.000-08:00',
      name,
      description: name,
      status: 'UP',
      region: links.region(regionOf(name)),
      selfLink: links.zone(name),
      availableCpuPlatforms: ['Intel Cascade Lake', 'Ampere Altra'],
      supportsPzs: false,
    };
  };
  const region = (name: string) => {
    const zones = REGIONS[name];
    if (!zones) throw notFound(`projects/${links.project}/regions/${name}`);
    return {
      kind: 'compute#region',
      id: String(1000 + Object.keys(REGIONS).indexOf(name)),
      creationTimestamp: '1969-12-31T16:00:00.000-08:00',
      name,
      description: name,
      status: 'UP',
      zones: zones.map((z) => links.zone(z)),
      quotas: [],
      selfLink: links.region(name),
      supportsPzs: false,
    };
  };
  const machineTypes = (zoneName: string) => {
    zone(zoneName);
    return MACHINE_TYPES.filter((t) => !t.zones || t.zones.includes(zoneName)).map((t) => ({
      kind: 'compute#machineType',
      id: String(800_000 + MACHINE_TYPES.indexOf(t)),
      creationTimestamp: '1969-12-31T16:00:00.000-08:00',
      name: t.name,
      description: `${t.guestCpus} vCPUs, ${t.memoryMb / 1024} GB RAM`,
      guestCpus: t.guestCpus,
      memoryMb: t.memoryMb,
      imageSpaceGb: 0,
      maximumPersistentDisks: 128,
      maximumPersistentDisksSizeGb: '263168',
      zone: zoneName,
      selfLink: `${links.zone(zoneName)}/machineTypes/${t.name}`,
      isSharedCpu: false,
      architecture: t.architecture,
      ...(t.accelerators && { accelerators: t.accelerators }),
    }));
  };
  const acceleratorTypes = (zoneName: string) => {
    zone(zoneName);
    return ACCELERATOR_TYPES.filter((a) => a.zones.includes(zoneName)).map((a) => ({
      kind: 'compute#acceleratorType',
      id: String(10_000 + ACCELERATOR_TYPES.indexOf(a)),
      creationTimestamp: '1969-12-31T16:00:00.000-08:00',
      name: a.name,
      description: a.description,
      zone: links.zone(zoneName),
      selfLink: `${links.zone(zoneName)}/acceleratorTypes/${a.name}`,
      maximumCardsPerInstance: a.maximumCardsPerInstance,
    }));
  };
  const list = (kind: string, id: string, items: Record<string, unknown>[], query: Params) => ({
    kind,
    id,
    ...page(items.filter(matcher(query.filter)), query),
    selfLink: `${links.base}/compute/v1/${id}`,
  });
  const project = `projects/${links.project}`;
  const opScope = (params: Params): Scope =>
    params.zone ? { zone: params.zone } : params.region ? { region: params.region } : 'global';

  const table: Record<string, Handler> = {
    'Projects.Get': () => ({
      kind: 'compute#project',
      id: '424242424242',
      creationTimestamp: '2024-01-01T00:00:00.000-08:00',
      name: links.project,
      commonInstanceMetadata: { kind: 'compute#metadata', fingerprint: 'rigrigrigrig', items: [] },
      quotas: [],
      selfLink: links.projectLink,
      defaultServiceAccount: '424242424242-compute@developer.gserviceaccount.com',
      xpnProjectStatus: 'UNSPECIFIED_XPN_PROJECT_STATUS',
      defaultNetworkTier: 'PREMIUM',
    }),
    'Zones.List': (_p, q) => list('compute#zoneList', `${project}/zones`, [...ZONE_IDS.keys()].map(zone), q),
    'Zones.Get': (p) => zone(p.zone!),
    'Regions.List': (_p, q) =>
      list('compute#regionList', `${project}/regions`, Object.keys(REGIONS).map(region), q),
    'Regions.Get': (p) => region(p.region!),
    'MachineTypes.List': (p, q) =>
      list('compute#machineTypeList', `${project}/zones/${p.zone}/machineTypes`, machineTypes(p.zone!), q),
    'MachineTypes.Get': (p) => {
      const found = machineTypes(p.zone!).find((t) => t.name === p.machineType);
      if (!found) throw notFound(`${project}/zones/${p.zone}/machineTypes/${p.machineType}`);
      return found;
    },
    'AcceleratorTypes.List': (p, q) =>
      list(
        'compute#acceleratorTypeList',
        `${project}/zones/${p.zone}/acceleratorTypes`,
        acceleratorTypes(p.zone!),
        q,
      ),
    'AcceleratorTypes.Get': (p) => {
      const found = acceleratorTypes(p.zone!).find((a) => a.name === p.acceleratorType);
      if (!found) throw notFound(`${project}/zones/${p.zone}/acceleratorTypes/${p.acceleratorType}`);
      return found;
    },
    'Instances.Insert': (p, _q, body) => instances.insert(p.zone!, body ?? {}),
    'Instances.Get': (p) => instances.get(p.zone!, p.instance!),
    'Instances.Delete': (p) => instances.delete(p.zone!, p.instance!),
    'Instances.List': (p, q) => {
      zone(p.zone!);
      return list(
        'compute#instanceList',
        `${project}/zones/${p.zone}/instances`,
        [...instances.zoneOf(p.zone!).values()],
        q,
      );
    },
    'Instances.AggregatedList': (_p, q) => {
      const keep = matcher(q.filter);
      const items: Record<string, unknown> = {};
      for (const z of ZONE_IDS.keys()) {
        const found = [...instances.zoneOf(z).values()].filter(
          (i) => keep(i) && !instances.unlisted.has(i.name),
        );
        items[`zones/${z}`] = found.length
          ? { instances: found }
          : {
              warning: {
                code: 'NO_RESULTS_ON_PAGE',
                message: `There are no results for scope 'zones/${z}' on this page.`,
                data: [{ key: 'scope', value: `zones/${z}` }],
              },
            };
      }
      return {
        kind: 'compute#instanceAggregatedList',
        id: `${project}/aggregated/instances`,
        items,
        selfLink: `${links.projectLink}/aggregated/instances`,
      };
    },
    'Firewalls.Insert': (_p, _q, body) => firewalls.insert(body ?? {}),
    'Firewalls.Get': (p) => firewalls.get(p.firewall!),
    'Firewalls.Delete': (p) => firewalls.delete(p.firewall!),
    'Firewalls.List': (_p, q) =>
      list('compute#firewallList', `${project}/global/firewalls`, [...firewalls.rules.values()], q),
    'ZoneOperations.Get': (p) => operations.get(opScope(p), p.operation!),
    'ZoneOperations.Wait': (p) => operations.wait(opScope(p), p.operation!),
    'RegionOperations.Get': (p) => operations.get(opScope(p), p.operation!),
    'RegionOperations.Wait': (p) => operations.wait(opScope(p), p.operation!),
    'GlobalOperations.Get': (p) => operations.get('global', p.operation!),
    'GlobalOperations.Wait': (p) => operations.wait('global', p.operation!),
  };
  return table;
}
