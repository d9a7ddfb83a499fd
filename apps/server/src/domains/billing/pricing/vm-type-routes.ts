import type { FastifyRequest } from 'fastify';
import { creditsPerHour, findVmTypes, type VmType, type VmTypeFilter } from '../../../compute/vm-types.js';
import type { Deps } from '../../../deps.js';
import type { App } from '../../../http/app-types.js';
import { itemsOf, offsetQuery, pageOf, pageQuery, pageResult } from '../../../http/pagination.js';
import { z } from '../../../http/zod.js';

const tags = ['pricing'];
const count = () => z.coerce.number().int().min(0).max(1_000_000).optional();
const backendType = z.enum(['vm_aws', 'vm_gcp', 'vm_azure']).optional();
// Clients say arm64; builds say aarch64: both mean the same machines.
const arch = z
  .enum(['x86_64', 'arm64', 'aarch64'])
  .transform((a) => (a === 'aarch64' ? 'arm64' : a))
  .optional();

const filters = z.object({
  cores: count(),
  cores__gte: count(),
  cores__lte: count(),
  gpus: count(),
  gpus__gte: count(),
  gpus__lte: count(),
  gpu_name: z.string().trim().min(1).max(64).optional(),
  memory: count().describe('MiB'),
  memory__gte: count().describe('MiB'),
  memory__lte: count().describe('MiB'),
  backend_type: backendType,
  arch,
  exclude_local_disk: z
    .enum(['true', 'false', '1', '0', 'True', 'False'])
    .transform((v) => v === 'true' || v === '1' || v === 'True')
    .optional(),
});

const toFilter = (q: z.infer<typeof filters>): VmTypeFilter => ({
  backendType: q.backend_type,
  arch: q.arch,
  cores: q.cores,
  coresGte: q.cores__gte,
  coresLte: q.cores__lte,
  gpus: q.gpus,
  gpusGte: q.gpus__gte,
  gpusLte: q.gpus__lte,
  gpuName: q.gpu_name,
  memory: q.memory,
  memoryGte: q.memory__gte,
  memoryLte: q.memory__lte,
  excludeLocalDisk: q.exclude_local_disk,
});

const vmTypeSchema = z.object({
  name: z.string(),
  backend_type: z.enum(['vm_aws', 'vm_gcp', 'vm_azure']),
  cores: z.number().int(),
  memory: z.number().int().describe('MiB'),
  gpus: z.number().int(),
  gpu_name: z.string().nullable(),
  arch: z.enum(['x86_64', 'arm64']),
  local_disk: z.boolean(),
  /** What established clients read: credits an hour. */
  coiled_credits: z.number(),
  credits_per_hour: z.number(),
  price_per_hour: z.number().describe('List price in dollars an hour, on demand.'),
});

const present = (t: VmType): z.infer<typeof vmTypeSchema> => ({
  name: t.name,
  backend_type: t.backendType,
  cores: t.cores,
  memory: t.memoryMib,
  gpus: t.gpus,
  gpu_name: t.gpuName || null,
  arch: t.arch,
  local_disk: t.localDisk,
  coiled_credits: creditsPerHour(t),
  credits_per_hour: creditsPerHour(t),
  price_per_hour: t.hourlyUsd,
});

function page(request: FastifyRequest, query: z.infer<typeof filters> & z.infer<typeof pageQuery>) {
  const found = findVmTypes(toFilter(query));
  const start = (query.page - 1) * query.page_size;
  return pageResult(request, query, found.length, found.slice(start, start + query.page_size).map(present));
}

/** The instance type catalogue, for clients choosing by cores and memory and for the cluster dialog. */
export function registerVmTypeRoutes(app: App, _deps: Deps): void {
  app.get(
    '/api/v1/vm-types/',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        description:
          'Instance types matching the filters, cheapest first (`memory` in MiB), paged DRF-style by `page`.',
        querystring: filters.extend(pageQuery.shape),
        response: { 200: pageOf(vmTypeSchema) },
      },
    },
    async (request) => page(request, request.query),
  );

  app.get(
    '/api/v2/pricing/vm-types/',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        description: 'Instance types with cores, memory (MiB), GPUs and price, matching the filters.',
        querystring: filters.extend(offsetQuery.shape),
        response: { 200: itemsOf(vmTypeSchema) },
      },
    },
    async (request) => {
      const found = findVmTypes(toFilter(request.query));
      const { offset, limit } = request.query;
      return { items: found.slice(offset, offset + limit).map(present), count: found.length };
    },
  );
}
