import { type Control, Controller } from 'react-hook-form';

import { FormField } from '@/components/form-field';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { useVmTypesQuery } from '@/data/cloud/vm-types-query';
import type { CreateClusterValues } from '@/lib/clusters/create-cluster-form';
import { formatMemoryMib } from '@/lib/format';

export const CLOUD_BACKENDS = ['vm_aws', 'vm_gcp', 'vm_azure'] as const;
const DEFAULT = 'workspace-default';

/** In a cloud workspace: the workers' instance type (from the catalogue, with its price) and spot. */
export function CloudMachineFields({
  control,
  backendType,
}: {
  control: Control<CreateClusterValues>;
  backendType: (typeof CLOUD_BACKENDS)[number];
}) {
  const types = useVmTypesQuery(backendType);
  return (
    <div className="grid gap-4 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-end">
      <Controller
        control={control}
        name="workerInstanceType"
        render={({ field }) => (
          <FormField id="create-cluster-instance-type" label="Worker instance type">
            <Select
              value={field.value || DEFAULT}
              onValueChange={(v) => field.onChange(v === DEFAULT ? '' : v)}
            >
              <SelectTrigger id="create-cluster-instance-type" className="w-full" onBlur={field.onBlur}>
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value={DEFAULT}>The workspace's default</SelectItem>
                {(types.data?.items ?? []).map((t) => (
                  <SelectItem key={t.name} value={t.name}>
                    {t.name} · {t.cores} cores · {formatMemoryMib(t.memory)}
                    {t.gpus ? ` · ${t.gpus} GPU` : ''} · ${t.pricePerHour.toFixed(3)}/h
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </FormField>
        )}
      />
      <Controller
        control={control}
        name="spot"
        render={({ field }) => (
          <Label className="flex items-center gap-2 pb-2 font-normal">
            <Switch checked={field.value} onCheckedChange={field.onChange} />
            Spot workers
          </Label>
        )}
      />
    </div>
  );
}
