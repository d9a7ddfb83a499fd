import * as React from 'react';

import { FormField } from '@/components/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { typeList } from '@/features/setup/messages';

/** What every VM cloud's settings give new clusters that ask nothing else (AWS's and GCP's alike). */
export interface ClusterDefaults {
  workerInstanceTypes: string[];
  schedulerInstanceTypes: string[];
  spot: boolean;
  spotOnDemandFallback: boolean;
  diskSizeGib: number;
}

/** The defaults as a form edits them, and the settings call's fields of what it holds. */
export function useClusterDefaults(settings: ClusterDefaults) {
  const [workers, setWorkers] = React.useState(settings.workerInstanceTypes.join(', '));
  const [scheduler, setScheduler] = React.useState(settings.schedulerInstanceTypes.join(', '));
  const [spot, setSpot] = React.useState(settings.spot);
  const [fallback, setFallback] = React.useState(settings.spotOnDemandFallback);
  const [disk, setDisk] = React.useState(String(settings.diskSizeGib));
  return {
    workers,
    setWorkers,
    scheduler,
    setScheduler,
    spot,
    setSpot,
    fallback,
    setFallback,
    disk,
    setDisk,
    body: () => ({
      worker_instance_types: typeList(workers),
      scheduler_instance_types: typeList(scheduler),
      spot,
      spot_on_demand_fallback: fallback,
      disk_size_gib: Number(disk),
    }),
  };
}

type Defaults = ReturnType<typeof useClusterDefaults>;

/** The worker's and the scheduler's types (`instance` on AWS, `machine` on GCP), and the disk's size. */
export function DefaultsFields({
  defaults,
  kind,
  diskLabel,
}: {
  defaults: Defaults;
  kind: 'instance' | 'machine';
  diskLabel: string;
}) {
  return (
    <>
      <FormField label={`Worker ${kind} types`} description="First with capacity wins.">
        <Input
          className="font-mono"
          value={defaults.workers}
          onChange={(e) => defaults.setWorkers(e.target.value)}
        />
      </FormField>
      <FormField label={`Scheduler ${kind} types`}>
        <Input
          className="font-mono"
          value={defaults.scheduler}
          onChange={(e) => defaults.setScheduler(e.target.value)}
        />
      </FormField>
      <FormField label={diskLabel}>
        <Input inputMode="numeric" value={defaults.disk} onChange={(e) => defaults.setDisk(e.target.value)} />
      </FormField>
    </>
  );
}

/** Spot workers, and on demand when spot capacity is short (only with spot). */
export function SpotSwitches({ defaults }: { defaults: Defaults }) {
  return (
    <div className="flex flex-wrap gap-6">
      <Label className="flex items-center gap-2 font-normal">
        <Switch checked={defaults.spot} onCheckedChange={defaults.setSpot} />
        Spot workers
      </Label>
      <Label className="flex items-center gap-2 font-normal">
        <Switch
          checked={defaults.fallback}
          onCheckedChange={defaults.setFallback}
          disabled={!defaults.spot}
        />
        On demand when spot capacity is short
      </Label>
    </div>
  );
}
