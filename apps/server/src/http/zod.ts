import { z } from 'zod';

/**
 * Validation messages in the wording clients of this API already know (Django REST framework's),
 * so a form shows the same text whichever field fails. Schemas that the spec gives a message
 * for set it explicitly.
 */
z.config({
  customError: (issue) => {
    switch (issue.code) {
      case 'invalid_type':
        if (issue.input === undefined) return 'This field is required.';
        if (issue.input === null) return 'This field may not be null.';
        return typeMessages[issue.expected] ?? 'Invalid value.';
      case 'too_big':
        if (issue.origin === 'string')
          return `Ensure this field has no more than ${issue.maximum} characters.`;
        if (issue.origin === 'array') return `Ensure this field has no more than ${issue.maximum} elements.`;
        return `Ensure this value is less than or equal to ${issue.maximum}.`;
      case 'too_small':
        if (issue.origin === 'string') {
          return issue.minimum === 1
            ? 'This field may not be blank.'
            : `Ensure this field has at least ${issue.minimum} characters.`;
        }
        if (issue.origin === 'array') return 'This list may not be empty.';
        return `Ensure this value is greater than or equal to ${issue.minimum}.`;
      case 'invalid_format':
        if (issue.format === 'email') return 'Enter a valid email address.';
        if (issue.format === 'datetime' || issue.format === 'date') return 'Enter a valid date/time.';
        return 'Enter a valid value.';
      case 'invalid_value':
        return `"${String(issue.input)}" is not a valid choice.`;
      default:
        return undefined;
    }
  },
});

const typeMessages: Record<string, string> = {
  string: 'Not a valid string.',
  number: 'A valid number is required.',
  int: 'A valid integer is required.',
  boolean: 'Must be a valid boolean.',
  object: 'Invalid data. Expected a dictionary of items.',
  array: 'Expected a list of items.',
};

/** A trimmed, bounded string: every free-text input goes through one of these. */
export const text = (max: number) => z.string().trim().max(max);

/** Path ids: positive integers; anything else is simply not found. */
export const id = z.coerce.number().int().positive().max(2_147_483_647);

/** Query booleans as clients send them: true/false, 1/0, True/False. */
export const queryBool = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', 'True', 'False', 'yes', 'no'])])
  .transform((v) => v === true || v === 'true' || v === '1' || v === 'True' || v === 'yes');

/** Ids in a query, comma-separated or repeated (`?ids=1,2` or `?ids=1&ids=2`), at most 500. */
export const idList = (message = 'Enter comma-separated ids.') =>
  z
    .union([text(2000), z.array(text(2000)).max(100)])
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return undefined;
      const ids = (Array.isArray(v) ? v.join(',') : v)
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
        .map(Number);
      if (ids.some((n) => !Number.isInteger(n) || n <= 0 || n > 2_147_483_647) || ids.length > 500) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return ids;
    });

export const detailSchema = z.object({ detail: z.string() });

export { z };
