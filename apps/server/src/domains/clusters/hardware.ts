import type { Backend, GpusOffered, MachineShape } from '../../compute/backend.js';
import { vmType } from '../../compute/vm-types.js';
import { FieldErrors } from '../../http/errors.js';
import { checkDisks, checkGpus, checkPlace, checkUnsupported } from './cluster-options.js';
import type { CreateClusterBody } from './schemas.js';

/**
 * What a new cluster's machines are and what it counts for, from the hardware its create call
 * asked (instance types, `worker_options` nthreads and memory_limit).
 * Asked-for hardware a backend cannot give is refused, naming the field, never ignored:
 * - the local backend (`in_process`) runs every instance as a process on this machine: its only
 *   instance type is `local`; a worker's threads and memory limit are what it was asked, up to
 *   the machine's cores and memory, and are what it counts for;
 * - a cloud backend runs the catalogue's instance types of its own cloud; a worker counts the
 *   cores of its type, and runs that many threads unless asked otherwise.
 */
export interface ClusterHardware {
  workerCores: number;
  schedulerCores: number;
  workerOptions: Record<string, unknown>;
  machines: { scheduler: MachineShape; worker: MachineShape };
  /** The worker types to run where the cluster's GPUs chose them (it named none). */
  workerInstanceTypes?: string[];
}

/**
 * The create call with the workspace's instance types filled in for a role that names none (and
 * asks no GPU, whose types are chosen by the GPUs), so the cluster is recorded, built for and
 * counted as the machines it launches: an arm64 default gives an arm64 cluster.
 */
export async function withDefaultInstanceTypes(
  backend: Backend,
  workspaceId: number,
  body: CreateClusterBody,
): Promise<CreateClusterBody> {
  const options = (body.options ?? {}) as Record<string, unknown>;
  const open = (role: 'worker' | 'scheduler') =>
    !body[`${role}_instance_types`]?.length && !options[`${role}_accelerator_count`];
  if (!backend.defaultInstanceTypes || !(open('worker') || open('scheduler'))) return body;
  const defaults = await backend.defaultInstanceTypes(workspaceId);
  if (!defaults) return body;
  return {
    ...body,
    ...(open('worker') && defaults.worker.length && { worker_instance_types: defaults.worker }),
    ...(open('scheduler') && defaults.scheduler.length && { scheduler_instance_types: defaults.scheduler }),
  };
}

export const LOCAL_TYPE = 'local';
const LOCAL_BACKEND = 'in_process';
const UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1e3,
  kb: 1e3,
  m: 1e6,
  mb: 1e6,
  g: 1e9,
  gb: 1e9,
  t: 1e12,
  tb: 1e12,
  kib: 2 ** 10,
  mib: 2 ** 20,
  gib: 2 ** 30,
  tib: 2 ** 40,
};

/** Bytes of a Dask memory limit (`4e9`, `"4 GiB"`, `"4GB"`); null for what is not a size ("auto", fractions). */
export function memoryBytes(value: unknown): number | null {
  if (typeof value === 'number') return value > 1 ? value : null;
  if (typeof value !== 'string') return null;
  const m = /^\s*([\d.]+(?:e\d+)?)\s*([a-z]*)\s*$/i.exec(value);
  const unit = m ? UNITS[m[2]!.toLowerCase()] : undefined;
  if (!m || unit === undefined) return null;
  const n = Number(m[1]) * unit;
  return Number.isFinite(n) && n > 1 ? n : null;
}

/**
 * The machine a worker is sized on by its threads and memory limit (what `clusterHardware`
 * checks them against): the local backend's own; null on a cloud, where instance types size workers.
 */
export const sizedByThreads = (backend: Pick<Backend, 'type' | 'machineFor'>): MachineShape | null =>
  backend.type === LOCAL_BACKEND ? backend.machineFor([]) : null;

/**
 * A machine of a type GPUs are attached to (Compute Engine's N1) has the GPUs asked: what it is
 * recorded, counted and priced as.
 */
function withAttachedGpus(machine: MachineShape, body: CreateClusterBody, role: 'worker' | 'scheduler') {
  const asked = (body.options as Record<string, unknown> | undefined)?.[`${role}_accelerator_count`];
  const n = typeof asked === 'number' && asked > 0 ? asked : 0;
  return n > machine.gpus && vmType(machine.instanceType)?.attachable ? { ...machine, gpus: n } : machine;
}

const gib = (bytes: number) => `${(bytes / 2 ** 30).toFixed(1).replace(/\.0$/, '')} GiB`;

export function clusterHardware(
  backend: Backend,
  body: CreateClusterBody,
  gpusOffered?: GpusOffered | null,
): ClusterHardware {
  const errors: Record<string, string[]> = {};
  const refuse = (field: string, message: string) => {
    errors[field] = [...(errors[field] ?? []), message];
  };
  let workerTypes = body.worker_instance_types ?? [];
  const schedulerTypes = body.scheduler_instance_types ?? [];
  const workerOptions = { ...(body.worker_options ?? {}) };
  // Where it runs, its GPUs, disks and the rest: honoured by the backend or refused, never ignored.
  checkPlace(backend, body, refuse);
  const gpus = checkGpus(backend, body, refuse, gpusOffered);
  checkDisks(backend, body, refuse);
  checkUnsupported(backend, body, refuse);
  const threads = workerOptions.nthreads;
  if (threads !== undefined && threads !== null && !(Number.isInteger(threads) && Number(threads) >= 1))
    refuse('worker_options.nthreads', 'A worker runs a whole number of threads, 1 or more.');

  const machine = sizedByThreads(backend);
  if (machine) {
    for (const [field, types] of [
      ['worker_instance_types', workerTypes],
      ['scheduler_instance_types', schedulerTypes],
    ] as const)
      for (const t of types)
        if (t !== LOCAL_TYPE)
          refuse(
            field,
            `This server's local backend has no instance type ${t}: every instance is a process on its machine (type ${LOCAL_TYPE}, ${machine.cores} cores, ${gib(machine.memoryMib * 2 ** 20)}). Choose a worker's size by cores and memory instead.`,
          );
    const n = Number(threads ?? 1);
    if (Number.isInteger(n) && n > machine.cores)
      refuse(
        'worker_options.nthreads',
        `This server's machine has ${machine.cores} cores: a worker can run at most ${machine.cores} threads (${n} asked).`,
      );
    const limit = workerOptions.memory_limit;
    const bytes = memoryBytes(limit);
    const total = machine.memoryMib * 2 ** 20;
    if (bytes !== null && bytes > total)
      refuse(
        'worker_options.memory_limit',
        `This server's machine has ${gib(total)} of memory: a worker can have at most that (${gib(bytes)} asked).`,
      );
    // The scheduler is one process: `cpu` (what `cumulus run` pins its command to) and `memory` are checked and counted.
    const schedulerOptions = body.scheduler_options ?? {};
    const schedulerCpu = schedulerOptions.cpu ?? 1;
    if (!Number.isInteger(schedulerCpu) || Number(schedulerCpu) < 1 || Number(schedulerCpu) > machine.cores)
      refuse(
        'scheduler_options.cpu',
        `This server's machine has ${machine.cores} cores: the scheduler can have 1 to ${machine.cores} (${String(schedulerCpu)} asked).`,
      );
    const schedulerBytes = memoryBytes(schedulerOptions.memory);
    if (schedulerBytes !== null && schedulerBytes > total)
      refuse(
        'scheduler_options.memory',
        `This server's machine has ${gib(total)} of memory: the scheduler can have at most that (${gib(schedulerBytes)} asked).`,
      );
    if (Object.keys(errors).length) throw new FieldErrors(errors);
    const cores = Math.max(1, Math.min(n, machine.cores));
    const schedulerCores = Number(schedulerCpu);
    return {
      workerCores: cores,
      schedulerCores,
      workerOptions,
      machines: {
        scheduler: {
          ...machine,
          cores: schedulerCores,
          memoryMib: schedulerBytes === null ? machine.memoryMib : Math.ceil(schedulerBytes / 2 ** 20),
        },
        worker: {
          ...machine,
          cores,
          memoryMib: bytes === null ? machine.memoryMib : Math.ceil(bytes / 2 ** 20),
        },
      },
    };
  }

  // A cloud backend: the catalogue's types of its own cloud, in the client's order of preference
  // (or, for GPUs asked without a type, those that have them).
  if (gpus.workerTypes) workerTypes = gpus.workerTypes;
  for (const [field, types] of [
    ['worker_instance_types', workerTypes],
    ['scheduler_instance_types', schedulerTypes],
  ] as const)
    for (const t of types)
      if (!backend.capabilities.typesAreLabels && vmType(t)?.backendType !== backend.type)
        refuse(
          field,
          `${t} is not an instance type of ${backend.type} that Cumulus knows (GET /api/v2/pricing/vm-types/?backend_type=${backend.type} lists them).`,
        );
  if (Object.keys(errors).length) throw new FieldErrors(errors);
  const worker = withAttachedGpus(backend.machineFor(workerTypes), body, 'worker');
  const scheduler = withAttachedGpus(backend.machineFor(schedulerTypes), body, 'scheduler');
  if (threads === undefined || threads === null) workerOptions.nthreads = worker.cores;
  return {
    workerCores: Math.max(1, worker.cores),
    schedulerCores: Math.max(1, scheduler.cores),
    workerOptions,
    machines: { scheduler, worker },
    ...(gpus.workerTypes && { workerInstanceTypes: gpus.workerTypes }),
  };
}
