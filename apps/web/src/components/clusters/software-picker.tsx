import { Link } from 'react-router';

import { FormField } from '@/components/form-field';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { useWorkspaceAliasesQuery } from '@/data/software/workspace-aliases-query';
import { serverMessage } from '@/lib/api/errors';

/** Radix selects take no empty value: this stands for "no environment". */
const INTERPRETER = '(interpreter)';

type SoftwarePickerProps = {
  workspace: string;
  /** An environment's name, or '' for the server's own interpreter. */
  value: string;
  onChange: (value: string) => void;
  onBlur: () => void;
  error?: string | undefined;
};

const BUILD_NOTE: Record<string, string> = {
  queued: 'build queued',
  building: 'building',
  error: 'build failed',
};

/**
 * The software environment a new cluster runs on: the workspace's environments with the state of
 * their latest build (a cluster on one still building waits for it), or the server's Python.
 */
export function SoftwarePicker({ workspace, value, onChange, onBlur, error }: SoftwarePickerProps) {
  const aliases = useWorkspaceAliasesQuery(workspace);
  const items = aliases.data?.items ?? [];
  const description = aliases.isError ? (
    `Environments could not be loaded (${serverMessage(aliases.error)}); the cluster can still use the server's Python.`
  ) : aliases.isSuccess && items.length === 0 ? (
    <>
      No environments in this workspace yet:{' '}
      <Link to="/software" className="text-primary underline-offset-4 hover:underline">
        create one
      </Link>{' '}
      to add packages.
    </>
  ) : (
    'Scheduler and workers run with its packages; one still building makes the cluster wait for it.'
  );

  return (
    <FormField
      id="create-cluster-software"
      label="Software environment"
      description={description}
      error={error}
    >
      <Select
        value={value || INTERPRETER}
        onValueChange={(next) => onChange(next === INTERPRETER ? '' : next)}
        disabled={aliases.isPending}
      >
        <SelectTrigger id="create-cluster-software" className="w-full" onBlur={onBlur}>
          <SelectValue placeholder="Loading environments…" />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value={INTERPRETER}>Server's Python (no environment)</SelectItem>
          {items.map((alias) => {
            const state = alias.latestSpec?.latestBuild?.state ?? 'queued';
            const note = BUILD_NOTE[state];
            return (
              <SelectItem key={alias.id} value={alias.name} disabled={state === 'error'}>
                <span className="font-mono">{alias.name}</span>
                {note && <span className="text-muted-foreground"> · {note}</span>}
              </SelectItem>
            );
          })}
        </SelectContent>
      </Select>
    </FormField>
  );
}
