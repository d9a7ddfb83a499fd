import type { Control } from 'react-hook-form';

import { type Choice, ChoiceField } from '@/components/choice-field';
import type { AccountOptions } from '@/data/clusters/account-options-query';
import type { CreateClusterValues } from '@/lib/clusters/create-cluster-form';

/** The machine workers run on here (`workerMachine` of the workspace's options). */
export type WorkerMachine = NonNullable<AccountOptions['workerMachine']>;

const CORE_STEPS = [1, 2, 4, 8, 16, 32, 64];
const MEMORY_STEPS_GIB = [1, 2, 4, 8, 16, 32, 64, 128];

/** Cores a worker may have on the machine: the powers of two under its count, then the count itself. */
export function coreChoices(machine: WorkerMachine | undefined): Choice[] {
  const cores = machine ? [...CORE_STEPS.filter((n) => n < machine.cores), machine.cores] : [1];
  return cores.map((n) => ({ value: String(n), label: `${n} ${n === 1 ? 'core' : 'cores'}` }));
}

/** Memory limits a worker may have on the machine (Automatic shares it). */
export function memoryChoices(machine: WorkerMachine | undefined): Choice[] {
  const sizes = machine ? MEMORY_STEPS_GIB.filter((gib) => gib * 1024 <= machine.memoryMib) : [];
  return [
    { value: '', label: 'Automatic' },
    ...sizes.map((gib) => ({ value: `${gib} GiB`, label: `${gib} GiB` })),
  ];
}

/**
 * On this server's own machines (no cloud): each worker's size, what `worker_cpu` and
 * `worker_memory` ask from Python — its threads (the cores it counts for) and its memory limit —
 * offered up to what the machine has (`machine`; undefined while it is being asked).
 */
export function WorkerSizeFields({
  control,
  machine,
}: {
  control: Control<CreateClusterValues>;
  machine: WorkerMachine | undefined;
}) {
  const cores = machine ? `, up to this machine's ${machine.cores}` : '';
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <ChoiceField
        control={control}
        name="workerCores"
        id="create-cluster-worker-cores"
        label="Worker cores"
        description={`Threads each worker runs${cores}; what it counts against your core limit.`}
        choices={coreChoices(machine)}
        disabled={!machine}
      />
      <ChoiceField
        control={control}
        name="workerMemory"
        id="create-cluster-worker-memory"
        label="Worker memory"
        description="Each worker's memory limit; Automatic shares the machine's memory."
        choices={memoryChoices(machine)}
        disabled={!machine}
      />
    </div>
  );
}
