import type { z } from 'zod';
import { FieldErrors } from './errors.js';

/**
 * Validates a value the route could not give its schema (an inflated body, say) with the same
 * field errors a route's body schema answers.
 */
export function parseFields<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const errors: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path.join('.') || 'non_field_errors';
    errors[field] = [...(errors[field] ?? []), issue.message];
  }
  throw new FieldErrors(errors);
}
