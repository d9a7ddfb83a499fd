import * as React from 'react';

import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import type { UsageGroupBy } from '@/data/usage/usage-query';
import type { UsageSearch } from '@/features/usage/search-params';
import { GROUP_BY_LABELS, PERIOD_LABELS, UNIT_LABELS } from '@/features/usage/units';

const NONE = 'none';
const GROUP_BY_CHOICES: Record<UsageGroupBy | typeof NONE, string> = {
  [NONE]: 'Nothing',
  ...GROUP_BY_LABELS,
};

type UsageControlsProps = {
  search: UsageSearch;
  onChange: (change: Partial<UsageSearch>) => void;
  /** The server's messages about the dates (or the tag), shown beside them. */
  errors: string[];
};

function Field({ id, label, children }: { id: string; label: string; children: React.ReactNode }) {
  return (
    <div className="flex min-w-0 flex-col gap-1.5">
      <Label htmlFor={id} className="text-muted-foreground text-xs">
        {label}
      </Label>
      {children}
    </div>
  );
}

type PickerProps<T extends string> = {
  id: string;
  label: string;
  value: T;
  /** Each choice and its label, in order. */
  labels: Record<T, string>;
  onChange: (value: T) => void;
  className: string;
};

function Picker<T extends string>({ id, label, value, labels, onChange, className }: PickerProps<T>) {
  return (
    <Field id={id} label={label}>
      <Select value={value} onValueChange={(next) => onChange(next as T)}>
        <SelectTrigger id={id} aria-label={label} className={`w-full ${className}`}>
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {(Object.entries(labels) as [T, string][]).map(([choice, text]) => (
            <SelectItem key={choice} value={choice}>
              {text}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </Field>
  );
}

/** Unit, period, group-by (and tag) and the date range, all kept in the URL. */
export function UsageControls({ search, onChange, errors }: UsageControlsProps) {
  const invalid = errors.length > 0 || undefined;
  return (
    <div className="flex flex-col gap-2">
      <div className="grid grid-cols-2 gap-3 sm:flex sm:flex-wrap sm:items-end">
        <Picker
          id="usage-unit"
          label="Unit"
          value={search.unit}
          labels={UNIT_LABELS}
          onChange={(unit) => onChange({ unit })}
          className="sm:w-52"
        />
        <Picker
          id="usage-period"
          label="Period"
          value={search.period}
          labels={PERIOD_LABELS}
          onChange={(period) => onChange({ period })}
          className="sm:w-32"
        />
        <Picker
          id="usage-groupby"
          label="Group by"
          value={search.groupBy ?? NONE}
          labels={GROUP_BY_CHOICES}
          onChange={(value) => onChange({ groupBy: value === NONE ? null : value })}
          className="sm:w-44"
        />
        {search.groupBy === 'tag' ? (
          <TagField tag={search.tag} onCommit={(tag) => onChange({ tag })} invalid={invalid} />
        ) : null}
        {(['start', 'end'] as const).map((edge) => (
          <Field key={edge} id={`usage-${edge}`} label={edge === 'start' ? 'From' : 'To'}>
            <Input
              id={`usage-${edge}`}
              type="date"
              value={search[edge]}
              {...(edge === 'start' ? { max: search.end } : { min: search.start })}
              aria-invalid={invalid}
              onChange={(event) => event.target.value && onChange({ [edge]: event.target.value })}
              className="sm:w-40"
            />
          </Field>
        ))}
      </div>
      {errors.map((message) => (
        <p key={message} role="alert" className="text-destructive text-sm">
          {message}
        </p>
      ))}
    </div>
  );
}

/** The tag grouped by: applied on Enter or when the field is left, not on every keystroke. */
function TagField({
  tag,
  onCommit,
  invalid,
}: {
  tag: string;
  onCommit: (tag: string) => void;
  invalid: true | undefined;
}) {
  const [draft, setDraft] = React.useState(tag);
  React.useEffect(() => setDraft(tag), [tag]);
  const commit = () => draft.trim() !== tag && onCommit(draft.trim());
  return (
    <Field id="usage-tag" label="Tag name">
      <Input
        id="usage-tag"
        value={draft}
        maxLength={200}
        placeholder="team"
        aria-invalid={invalid}
        onChange={(event) => setDraft(event.target.value)}
        onBlur={commit}
        onKeyDown={(event) => event.key === 'Enter' && commit()}
        className="sm:w-40"
      />
    </Field>
  );
}
