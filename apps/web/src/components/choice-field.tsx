import { type Control, Controller, type FieldPath, type FieldValues } from 'react-hook-form';

import { FormField } from '@/components/form-field';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';

/** Radix Select items cannot have an empty value: '' travels as this. */
const EMPTY = '__none__';

export type Choice = { value: string; label: string };

/** A labelled select of a form's string field ('' allowed as one of the choices), with its error. */
export function ChoiceField<T extends FieldValues>({
  control,
  name,
  id,
  label,
  description,
  choices,
  disabled = false,
}: {
  control: Control<T>;
  name: FieldPath<T>;
  id: string;
  label: string;
  description?: string;
  choices: readonly Choice[];
  disabled?: boolean;
}) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <FormField id={id} label={label} description={description} error={fieldState.error?.message}>
          <Select
            value={field.value || EMPTY}
            onValueChange={(v) => field.onChange(v === EMPTY ? '' : v)}
            disabled={disabled}
          >
            <SelectTrigger ref={field.ref} id={id} className="w-full" onBlur={field.onBlur}>
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {choices.map((choice) => (
                <SelectItem key={choice.value || EMPTY} value={choice.value || EMPTY}>
                  {choice.label}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </FormField>
      )}
    />
  );
}
