import { z } from '../../../http/zod.js';

export { workspaceParams } from '../schemas.js';

/** `GET /api/v1/{ws}/backend_options/`. */
export const backendOptionsSchema = z.object({
  backend: z.string().describe('The backend type (`in_process`, `vm_aws`, `vm_gcp`, `vm_azure`...).'),
  options: z
    .looseObject({ provider_name: z.string().describe('`local`, `aws`, `gcp` or `azure`.') })
    .describe('What clients need to know of the backend (region, provider).'),
  capabilities: z
    .object({
      ssh: z.boolean(),
      dashboards: z.boolean(),
      gpus: z.boolean(),
      spot: z.boolean(),
      firewall: z
        .boolean()
        .describe(
          'A cluster may have its own firewall (options.firewall_spec); the Python client sends its default one only then.',
        ),
      builds: z.array(z.enum(['pip', 'conda', 'container'])),
    })
    .describe("What the workspace's clusters can do on this backend."),
});

/** `user/account/{ws}/options`: what the workspace's clusters can be, and the caller's limits there. */
export const accountOptionsSchema = z.object({
  account: z.string().describe('The workspace’s slug.'),
  backend_type: z.string().describe('Where its clusters run: `in_process` is this machine.'),
  provider_name: z.string(),
  can_use_cumulus_hosted: z.boolean().describe('Always true: every workspace runs on this server’s compute.'),
  capabilities: backendOptionsSchema.shape.capabilities,
  core_limit: z.number().int().nullable().describe('The caller’s core limit here; null when not a member.'),
  credit_limit: z.number().int().nullable().describe('The caller’s monthly credit limit here.'),
  workspace_credit_limit: z.number().int().nullable(),
  default_software_environment: z
    .string()
    .nullable()
    .describe('What clusters created without an environment run on; null: the interpreter itself.'),
  default_idle_timeout: z.string(),
  worker_machine: z
    .object({
      cores: z
        .number()
        .int()
        .describe('Its cores: a worker may run 1 to this many threads (`worker_options.nthreads`).'),
      memory_mib: z
        .number()
        .int()
        .describe('Its memory in MiB: the most a worker’s `worker_options.memory_limit` may be.'),
    })
    .nullable()
    .describe(
      'Where workers are sized by threads and memory limit (the local backend: this server’s machine), the machine each runs on; null where instance types size them (cloud backends).',
    ),
});
