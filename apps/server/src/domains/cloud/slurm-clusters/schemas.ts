import { text, z } from '../../../http/zod.js';

/** How the server reaches a login node: over SSH, from its own machine, or through slurmrestd. */
export const slurmLoginKind = z.enum(['ssh', 'local', 'rest']);
export type SlurmLoginKind = z.infer<typeof slurmLoginKind>;

/** A Slurm name (partition, account, QOS): letters, digits and `._-`, nothing a shell reads. */
const slurmName = text(64).regex(/^[A-Za-z0-9_.-]+$/, 'Letters, digits, dots, dashes and underscores.');

/** slurmrestd's token: a JWT, as `scontrol token` prints it. */
const jwt = z
  .string()
  .max(4_000)
  .regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/, 'A JWT (scontrol token username=<user>).');

/** A new token for a cluster reached through slurmrestd (the old one expires). */
export const slurmTokenBody = z.object({ token: jwt });

/**
 * A Slurm cluster as a workspace admin connects it: its login node (this machine, where the
 * operator allows it, or an SSH host with its key pinned; the private key is sealed and never
 * shown again) or slurmrestd with a JWT (sealed likewise) and the Slurm user it is of, and what
 * every job asks (partition, account, QOS, time limit), with what a node offers.
 */
export const slurmClusterBody = z
  .object({
    name: text(64).regex(/^[a-z0-9][a-z0-9-]*$/, 'Lowercase letters, digits and dashes.'),
    login: slurmLoginKind.default('ssh'),
    address: text(255).min(1).optional(),
    port: z.number().int().min(1).max(65_535).default(22),
    user: text(64)
      .regex(/^[a-z_][a-z0-9_.-]*$/, 'A Unix account name.')
      .optional(),
    rest_url: text(255)
      .regex(/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/, "slurmrestd's base URL (http://host:6820).")
      .optional(),
    token: jwt.optional(),
    host_key: text(2_000)
      .regex(
        /^ssh-[a-z0-9-]+ [A-Za-z0-9+/]+=*( .*)?$/,
        "The login node's public key line (ssh-ed25519 AAAA...).",
      )
      .optional(),
    private_key: z
      .string()
      .max(20_000)
      .regex(/-----BEGIN [A-Z ]*PRIVATE KEY-----/, 'An OpenSSH private key.')
      .optional(),
    partition: slurmName.optional(),
    slurm_account: slurmName.optional(),
    qos: slurmName.optional(),
    time_limit_minutes: z
      .number()
      .int()
      .min(1)
      .max(366 * 24 * 60)
      .optional(),
    node_cores: z.number().int().min(1).max(4_096),
    node_memory_mib: z
      .number()
      .int()
      .min(256)
      .max(64 * 1024 * 1024),
    node_gpus: z.number().int().min(0).max(64).default(0),
    python: text(255).min(1).default('python3'),
  })
  .superRefine((body, ctx) => {
    const needs = {
      ssh: [['address', 'user', 'host_key', 'private_key'], 'Required to reach the login node over SSH.'],
      rest: [['rest_url', 'user', 'token'], 'Required to reach slurmrestd.'],
      local: [[], ''],
    } as const;
    const [fields, message] = needs[body.login];
    for (const field of fields) if (!body[field]) ctx.addIssue({ code: 'custom', path: [field], message });
    // Each login's own fields only: one of another is refused, not ignored.
    const own = new Set<string>(fields);
    for (const field of ['address', 'host_key', 'private_key', 'rest_url', 'token', 'user'] as const)
      if (body[field] !== undefined && !own.has(field))
        ctx.addIssue({ code: 'custom', path: [field], message: `Not a field of login "${body.login}".` });
  });

export const slurmClusterHealth = z.object({
  status: z.enum(['ok', 'unreachable', 'host_key_mismatch', 'refused', 'no_slurm']),
  message: z.string(),
  partition_state: z.string().optional(),
});

export const slurmClusterAnswer = z.object({
  id: z.number(),
  name: z.string(),
  login: slurmLoginKind,
  address: z.string().nullable(),
  port: z.number().nullable(),
  user: z.string().nullable(),
  host_key: z.string().nullable(),
  rest_url: z.string().nullable(),
  /** When slurmrestd's token expires (its `exp`), for login "rest"; null otherwise or when it says none. */
  token_expires: z.string().nullable(),
  partition: z.string().nullable(),
  slurm_account: z.string().nullable(),
  qos: z.string().nullable(),
  time_limit_minutes: z.number().nullable(),
  node_cores: z.number(),
  node_memory_mib: z.number(),
  node_gpus: z.number(),
  python: z.string(),
  health: slurmClusterHealth.nullable(),
  checked_at: z.string().nullable(),
  created: z.string(),
});
