import { z } from 'zod';

// The Team area's rules; the server checks the same ones.

export const NAME_MIN = 4;
export const NAME_MAX = 34;
/** A new member's limits in each workspace. */
export const DEFAULT_CORE_LIMIT = 1000;
export const DEFAULT_CREDIT_LIMIT = 100000;
const LIMIT_MAX = 2_147_483_647;

const name = (required: string) =>
  z
    .string()
    .trim()
    .min(1, { error: required, abort: true })
    .min(NAME_MIN, { error: `Must be at least ${NAME_MIN} characters`, abort: true })
    .max(NAME_MAX, `Must be less than ${NAME_MAX} characters`);

export const NAME_HELP = `Must be unique, ${NAME_MIN} to ${NAME_MAX} characters.`;
export const workspaceNameSchema = z.object({ name: name('Workspace name is required') });
export const organizationNameSchema = z.object({ name: name('Organization name is required') });

/** A limit typed into a field: a whole number from 0, with the label's own messages. */
const limit = (label: string, requiredMessage = `${label} is required`) =>
  z
    .string()
    .trim()
    .min(1, { error: requiredMessage, abort: true })
    .regex(/^-?\d+(\.\d+)?$/, { error: `${label} must be a number`, abort: true })
    .transform(Number)
    .refine((value) => value >= 0, { error: `${label} must be greater than or equal to 0`, abort: true })
    .refine(Number.isInteger, { error: `${label} must be a whole number`, abort: true })
    .refine((value) => value <= LIMIT_MAX, `${label} is too large`);

export const creditLimitSchema = z.object({
  creditLimit: limit('Credit limit', 'A credit limit is required'),
});

const workspaceAccess = z.object({
  workspaceId: z.number(),
  /** The row's id when the member (or invite) already has one. */
  rowId: z.number().optional(),
  access: z.boolean(),
  isAdmin: z.boolean(),
  coreLimit: z.string(),
  creditLimit: z.string(),
});

const coreLimit = limit('Core limit');
const memberCreditLimit = limit('Credit limit');

/** Add / edit member and edit invite. Limits are checked only on the rows given access. */
export const memberSchema = z
  .object({
    emailOrUsername: z.string().trim().min(1, 'Username or Email is required').max(254),
    organizationAdmin: z.boolean(),
    workspaces: z.array(workspaceAccess),
  })
  .superRefine((values, context) => {
    values.workspaces.forEach((row, index) => {
      if (!row.access) return;
      for (const [field, schema] of [
        ['coreLimit', coreLimit],
        ['creditLimit', memberCreditLimit],
      ] as const) {
        // A member's credit limit left empty is no limit.
        if (field === 'creditLimit' && row.creditLimit.trim() === '') continue;
        const result = schema.safeParse(row[field]);
        if (!result.success)
          context.addIssue({
            code: 'custom',
            path: ['workspaces', index, field],
            message: result.error.issues[0]?.message ?? `${field} is invalid`,
          });
      }
    });
  });

export type MemberValues = z.input<typeof memberSchema>;
export type WorkspaceAccessValues = z.input<typeof workspaceAccess>;
