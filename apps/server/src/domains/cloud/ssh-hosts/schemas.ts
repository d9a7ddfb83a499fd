import { text, z } from '../../../http/zod.js';

/** A host as a workspace admin registers it; the private key is sealed and never shown again. */
export const sshHostBody = z.object({
  name: text(64).regex(/^[a-z0-9][a-z0-9-]*$/, 'Lowercase letters, digits and dashes.'),
  address: text(255).min(1),
  port: z.number().int().min(1).max(65_535).default(22),
  user: text(64).regex(/^[a-z_][a-z0-9_-]*$/, 'A Unix account name.'),
  host_key: text(2_000).regex(
    /^ssh-[a-z0-9-]+ [A-Za-z0-9+/]+=*( .*)?$/,
    "The host's public key line (ssh-ed25519 AAAA...).",
  ),
  private_key: z
    .string()
    .max(20_000)
    .regex(/-----BEGIN [A-Z ]*PRIVATE KEY-----/, 'An OpenSSH private key.'),
  cores: z.number().int().min(1).max(4_096),
  memory_mib: z
    .number()
    .int()
    .min(256)
    .max(64 * 1024 * 1024),
  gpus: z.number().int().min(0).max(64).default(0),
  labels: z.array(text(64).min(1)).max(32).default([]),
  python: text(255).min(1).default('python3'),
});

export const sshHostHealth = z.object({
  status: z.enum(['ok', 'unreachable', 'host_key_mismatch', 'refused', 'no_dask']),
  message: z.string(),
  python_version: z.string().optional(),
  dask_version: z.string().optional(),
  free_cores: z.number().optional(),
  free_memory_mib: z.number().optional(),
});

export const sshHostAnswer = z.object({
  id: z.number(),
  name: z.string(),
  address: z.string(),
  port: z.number(),
  user: z.string(),
  host_key: z.string(),
  cores: z.number(),
  memory_mib: z.number(),
  gpus: z.number(),
  labels: z.array(z.string()),
  python: z.string(),
  health: sshHostHealth.nullable(),
  checked_at: z.string().nullable(),
  /** Cores, MiB and GPUs Cumulus has placed there now. */
  used_cores: z.number(),
  used_memory_mib: z.number(),
  used_gpus: z.number(),
  created: z.string(),
});
