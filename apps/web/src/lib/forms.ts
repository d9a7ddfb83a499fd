import { zodResolver } from '@hookform/resolvers/zod';
import {
  type FieldValues,
  type Path,
  type UseFormProps,
  type UseFormSetError,
  useForm,
} from 'react-hook-form';
import type { z } from 'zod';

import { isApiError } from '@/lib/api/errors';

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
 * Puts a server answer's field errors (`{"new_password1": ["...", "..."]}`) on the form's fields
 * of the same (camelCase) name, messages joined with commas. Answers whether it set any.
 */
export function setServerFieldErrors<Values extends FieldValues>(
  setError: UseFormSetError<Values>,
  error: unknown,
  fields: readonly Path<Values>[],
): boolean {
  if (!isApiError(error)) return false;
  let any = false;
  for (const field of fields) {
    const messages = error.fieldErrors(field);
    if (messages.length === 0) continue;
    setError(field, { type: 'server', message: messages.join(', ') }, { shouldFocus: !any });
    any = true;
  }
  return any;
}
