import { zodResolver } from '@hookform/resolvers/zod';
import {
  type FieldValues,
  type Path,
  type UseFormProps,
  type UseFormSetError,
  useForm,
} from 'react-hook-form';
import type { z } from 'zod';

import { camelCase } from '@/lib/api/camelize';
import { isApiError, serverMessage } from '@/lib/api/errors';

/** A react-hook-form form validated by a zod schema (the schema's messages are the spec's). */
export function useZodForm<Schema extends z.ZodType<FieldValues, FieldValues>>(
  schema: Schema,
  options: Omit<UseFormProps<z.input<Schema>, unknown, z.output<Schema>>, 'resolver'> = {},
) {
  return useForm<z.input<Schema>, unknown, z.output<Schema>>({
    mode: 'onTouched',
    ...options,
    resolver: zodResolver(schema),
  });
}

/**
 * Where a server's field errors go on a form: its field paths (`worker_options.nthreads`, or the
 * form's own camelCase name) to the form's fields. A list names fields the form and the wire share.
 */
export type ServerFields<Values extends FieldValues> =
  | readonly Path<Values>[]
  | Readonly<Record<string, Path<Values>>>;

/** Puts each field error the form has a field for on that field; answers the fields placed (camelCase). */
function placeServerErrors<Values extends FieldValues>(
  setError: UseFormSetError<Values>,
  error: unknown,
  fields: ServerFields<Values>,
): Set<string> {
  const placed = new Set<string>();
  if (!isApiError(error)) return placed;
  const routes: Array<[string, Path<Values>]> = Array.isArray(fields)
    ? fields.map((field) => [field, field])
    : Object.entries(fields as Readonly<Record<string, Path<Values>>>);
  for (const [wire, field] of routes) {
    const messages = error.fieldErrors(wire);
    if (messages.length === 0) continue;
    setError(field, { type: 'server', message: messages.join(', ') }, { shouldFocus: placed.size === 0 });
    placed.add(camelCase(wire));
  }
  return placed;
}

/**
 * Shows a failed call on a form, one way for every form: each field error the form has a field
 * for goes to that field (messages joined with commas, the first one focused), and the answer is
 * what to show above the form: the server's general message, else the field errors no field
 * shows, else the kind's text; null when every message is at its field.
 */
export function showServerErrors<Values extends FieldValues>(
  setError: UseFormSetError<Values>,
  error: unknown,
  fields: ServerFields<Values>,
): string | null {
  return serverMessage(error, placeServerErrors(setError, error, fields));
}

/**
 * Puts a server answer's field errors on the form's fields of the same name and answers whether
 * it set any (for forms that show the rest their own way).
 */
export function setServerFieldErrors<Values extends FieldValues>(
  setError: UseFormSetError<Values>,
  error: unknown,
  fields: readonly Path<Values>[],
): boolean {
  return placeServerErrors(setError, error, fields).size > 0;
}
