import { z } from '../../../http/zod.js';

export { workspaceParams } from '../schemas.js';

/** `GET /api/v1/{ws}/backend_options/` (client-contract.md section 7). */
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
      builds: z.array(z.enum(['pip', 'conda', 'container'])),
    })
    .describe("What the workspace's clusters can do on this backend."),
});
