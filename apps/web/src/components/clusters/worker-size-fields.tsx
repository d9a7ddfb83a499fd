import type { Control } from 'react-hook-form';

import { ChoiceField } from '@/components/choice-field';
import type { CreateClusterValues } from '@/lib/clusters/create-cluster-form';

/** Sizes offered; the server refuses what its machine does not have, saying how much it has. */
export const CORE_CHOICES = ['1', '2', '4', '8', '16'].map((n) => ({
  value: n,
  label: `${n} ${n === '1' ? 'core' : 'cores'}`,
}));
const MEMORY_CHOICES = [
  { value: '', label: 'Automatic' },
  ...['1 GiB', '2 GiB', '4 GiB', '8 GiB', '16 GiB', '32 GiB'].map((m) => ({ value: m, label: m })),
];

/**
 * On this server's own machines (no cloud): each worker's size, what `worker_cpu` and
 * `worker_memory` ask from Python — its threads (the cores it counts for) and its memory limit.
 */
export function WorkerSizeFields({ control }: { control: Control<CreateClusterValues> }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <ChoiceField
        control={control}
        name="workerCores"
        id="create-cluster-worker-cores"
        label="Worker cores"
        description="Threads each worker runs; what it counts against your core limit."
        choices={CORE_CHOICES}
      />
      <ChoiceField
        control={control}
        name="workerMemory"
        id="create-cluster-worker-memory"
        label="Worker memory"
        description="Each worker's memory limit; Automatic shares the machine's memory."
        choices={MEMORY_CHOICES}
      />
    </div>
  );
}
