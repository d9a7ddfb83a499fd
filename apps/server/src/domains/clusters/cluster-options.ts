import type { Backend, GpusOffered } from '../../compute/backend.js';
import { gpusOn, VM_TYPES, type VmType, vmType } from '../../compute/vm-types.js';
import { checkFirewallSpec } from './firewall-spec.js';
import type { CreateClusterBody } from './schemas.js';

/**
 * The create call's fields beyond size (and its backend `options`): where
 * the cluster runs (region, zone), its GPUs, disks, firewall, sidecars and privacy. Each is either
 * honoured by the workspace's backend or refused here, naming the field and why; never stored and
 * ignored.
 */
export type Refuse = (field: string, message: string) => void;

const LOCAL_BACKEND = 'in_process';
/** EBS gp3 throughput, MB/s. */
const GP3_THROUGHPUT = { min: 125, max: 1000 };

type BackendOptions = Record<string, unknown>;
const optionsOf = (body: CreateClusterBody): BackendOptions => (body.options ?? {}) as BackendOptions;
const count = (v: unknown) => (typeof v === 'number' && v > 0 ? v : 0);

/** Region and zone: one of the workspace's set-up regions, and a zone of that region. */
export function checkPlace(backend: Backend, body: CreateClusterBody, refuse: Refuse): void {
  const options = optionsOf(body);
  const self = backend.describeSelf().options;
  const here = typeof self.region_name === 'string' ? self.region_name : '';
  const regions = Array.isArray(self.regions) ? (self.regions as string[]) : here ? [here] : [];
  const region = typeof options.region_name === 'string' && options.region_name ? options.region_name : here;
  if (region !== here && here && !regions.includes(region)) {
    const others = regions.filter((r) => r !== here);
    refuse(
      'options.region_name',
      `Clusters of this workspace run in ${here}${
        backend.type === LOCAL_BACKEND
          ? " (this server's own machine)"
          : `, its default region${others.length ? `, or ${others.join(', ')}` : ''}`
      }; ${region} is not set up for them.`,
    );
  }
  const zone = options.zone_name;
  if (typeof zone === 'string' && zone) {
    if (backend.type === LOCAL_BACKEND)
      refuse(
        'options.zone_name',
        "This server's local backend runs every instance on its own machine: it has no zones.",
      );
    else if (!new RegExp(`^${region.replaceAll('.', '\\.')}[a-z]$`).test(zone))
      refuse('options.zone_name', `${zone} is not a zone of ${region}, where this cluster runs.`);
  }
}

/**
 * GPUs (`worker_gpu` arrives as `worker_accelerator_count` and `_type`): the instance types asked
 * must have them, their own or attached (Compute Engine's N1 types take T4s); with none asked, the
 * catalogue's that do, cheapest first. Answers the worker
 * types to run, where the GPUs chose them. A backend that places GPUs itself (`offered`: Slurm's
 * GRES, SSH hosts' devices) takes a count its machines have, and no type.
 */
export function checkGpus(
  backend: Backend,
  body: CreateClusterBody,
  refuse: Refuse,
  offered?: GpusOffered | null,
): { workerTypes?: string[] } {
  const options = optionsOf(body);
  let chosen: string[] | undefined;
  for (const role of ['worker', 'scheduler'] as const) {
    const field = `options.${role}_accelerator_count`;
    const n = count(options[`${role}_accelerator_count`]);
    const kind =
      typeof options[`${role}_accelerator_type`] === 'string'
        ? String(options[`${role}_accelerator_type`])
        : '';
    if (!n) continue;
    if (offered) {
      if (n > offered.gpus) refuse(field, offered.refusal(n));
      if (kind)
        refuse(
          `options.${role}_accelerator_type`,
          `The ${backend.type} backend places GPUs by count, not by type: leave the type out.`,
        );
      continue;
    }
    if (!backend.capabilities.gpus) {
      refuse(field, `Instances of backend ${backend.type} have no GPUs.`);
      continue;
    }
    const on = (name: string) => {
      const t = vmType(name);
      return t ? gpusOn(t, n, kind || undefined) : null;
    };
    const wanted = `${n} GPU${n > 1 ? 's' : ''}${kind ? ` (${kind})` : ''}`;
    const asked = (role === 'worker' ? body.worker_instance_types : body.scheduler_instance_types) ?? [];
    const without = asked.filter((t) => !on(t));
    if (without.length) {
      // A type GPUs are attached to takes some counts only (Compute Engine's N1: 1, 2 or 4 T4s).
      const attachable = without.flatMap((t) => {
        const a = vmType(t)?.attachable;
        const counts = `${a?.counts.slice(0, -1).join(', ')} or ${a?.counts.at(-1)}`;
        return a && (!kind || a.gpuName === kind) ? [`${t} takes ${counts} ${a.gpuName} GPUs`] : [];
      });
      refuse(
        field,
        attachable.length === without.length
          ? `${attachable.join('; ')} (${n} asked).`
          : `${without.join(', ')} ha${without.length > 1 ? 've' : 's'} no ${wanted}.`,
      );
      continue;
    }
    if (asked.length) continue;
    // Cheapest first, attached GPUs' price included.
    const price = (t: VmType) => {
      const g = gpusOn(t, n, kind || undefined);
      return t.hourlyUsd + (g?.attached ? g.hourlyUsd : 0);
    };
    const found = VM_TYPES.filter((t) => t.backendType === backend.type && on(t.name))
      .sort((a, b) => price(a) - price(b))
      .map((t) => t.name);
    if (found.length === 0 || role === 'scheduler')
      refuse(
        field,
        found.length
          ? `Name the scheduler's GPU instance type (scheduler_instance_types), one of ${found.join(', ')}.`
          : `No instance type of ${backend.type} that Cumulus knows has ${wanted}.`,
      );
    else chosen = found;
  }
  return chosen ? { workerTypes: chosen } : {};
}

/** Disks: a cloud backend sizes each machine's root volume (gp3 on AWS); the local one has none of its own. */
export function checkDisks(backend: Backend, body: CreateClusterBody, refuse: Refuse): void {
  const local = backend.type === LOCAL_BACKEND;
  for (const field of ['worker_disk_size', 'scheduler_disk_size'] as const)
    if (count(body[field]) && local)
      refuse(
        field,
        "This server's local backend runs instances as processes on its own disk: it sizes no disks.",
      );
  const throughput = count(body.worker_disk_throughput);
  if (throughput && local)
    refuse(
      'worker_disk_throughput',
      "This server's local backend runs instances on its own disk: it sets no throughput.",
    );
  else if (throughput && (throughput < GP3_THROUGHPUT.min || throughput > GP3_THROUGHPUT.max))
    refuse(
      'worker_disk_throughput',
      `A gp3 volume's throughput is ${GP3_THROUGHPUT.min} to ${GP3_THROUGHPUT.max} MB/s (${throughput} asked).`,
    );
  for (const field of ['worker_disk_config', 'scheduler_disk_config'] as const)
    if (body[field] && Object.keys(body[field]).length)
      refuse(
        field,
        `Disks are set by ${field.replace('_config', '_size')} (and worker_disk_throughput) only.`,
      );
}

/**
 * A cluster's own firewall (`firewall_spec`): checked rule by rule, and
 * honoured where the backend makes a firewall per cluster (vm_aws: a security group). The local
 * backend has none: it refuses one (the Python client sends none there unless asked). `firewall`
 * and `ingress` are the client's own arguments, which it sends as `firewall_spec`.
 */
export function checkFirewall(backend: Backend, body: CreateClusterBody, refuse: Refuse): void {
  const options = optionsOf(body);
  for (const key of ['firewall', 'ingress'])
    if (options[key] !== undefined && options[key] !== null)
      refuse(
        `options.${key}`,
        `Send a cluster's firewall as options.firewall_spec: {"ingress": [{"ports": [int, ...], "cidr": "a.b.c.d/n"}, ...]}.`,
      );
  const spec = options.firewall_spec;
  if (spec === undefined || spec === null) return;
  if (!backend.capabilities.firewall) {
    refuse(
      'options.firewall_spec',
      backend.type === LOCAL_BACKEND
        ? "This server's local backend runs instances as processes on its own machine, behind no firewall of Cumulus's: a cluster's own firewall rules are not supported."
        : `Clusters of backend ${backend.type} have no firewall of their own: a cluster's own firewall rules are not supported.`,
    );
    return;
  }
  const checked = checkFirewallSpec(spec);
  if ('problem' in checked) refuse('options.firewall_spec', checked.problem);
}

/**
 * What no backend of this server does: sidecar and user containers, clusters hidden from the
 * workspace, an EC2 key pair of the caller's (every cluster has its own key), more than one Dask
 * process per instance, the AWS credentials endpoint, a host setup script before Dask.
 */
export function checkUnsupported(backend: Backend, body: CreateClusterBody, refuse: Refuse): void {
  const options = optionsOf(body);
  checkFirewall(backend, body, refuse);
  for (const field of ['scheduler_sidecars', 'worker_sidecars'] as const)
    if (body[field]?.length)
      refuse(
        field,
        `Instances of backend ${backend.type} run Dask in their image's Python, without containers: sidecars are not supported.`,
      );
  if (body.private_to_creator)
    refuse(
      'private_to_creator',
      'Every member of a workspace sees its clusters: clusters private to their creator are not supported.',
    );
  if (body.extra_worker_on_scheduler)
    refuse(
      'extra_worker_on_scheduler',
      "Each instance runs one Dask process: the scheduler's instance runs the scheduler, not also a worker; add a worker instead.",
    );
  if ((body.n_worker_specs_per_host ?? 1) > 1)
    refuse(
      'n_worker_specs_per_host',
      'Each worker instance runs one Dask worker (its threads are `worker_options.nthreads`): several workers per instance are not supported.',
    );
  if (body.use_aws_creds_endpoint)
    refuse(
      'use_aws_creds_endpoint',
      'AWS credentials reach a cluster as refreshed session credentials in its environment (credentials="local"): the credentials endpoint is not supported.',
    );
  for (const field of ['extra_user_container', 'coiled_cloud_env_image'] as const)
    if (body[field])
      refuse(
        field,
        `Instances of backend ${backend.type} run Dask in the cluster's software environment, not in a container: ${field} is not supported.`,
      );
  if (body.host_setup_script)
    refuse(
      'host_setup_script',
      "A cluster's instances run no host setup script before Dask starts: put the setup in the cluster's software environment (a batch job's host_setup does run before its tasks).",
    );
  if (typeof options.keypair_name === 'string' && options.keypair_name)
    refuse(
      'options.keypair_name',
      'Every cluster has an SSH key of its own (GET .../ssh-key, `cumulus cluster ssh`): another key pair is not supported.',
    );
}
