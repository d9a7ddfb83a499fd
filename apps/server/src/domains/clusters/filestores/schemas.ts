import { id, text, z } from '../../../http/zod.js';

/** A path inside a store: relative, without `..`, at most 1000 characters. */
export const storePath = text(1000)
  .min(1)
  .transform((p) => p.replaceAll('\\', '/').replace(/^\.?\/+/, ''))
  .refine(
    (p) => p.length > 0 && !p.split('/').some((part) => part === '..' || part === ''),
    'Use a relative path inside the store (no "..", no empty parts).',
  );

export const filestoreSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  workspace: z.string(),
  region: z.string(),
  created: z.string(),
});

export const listBody = z.object({
  names: z
    .array(
      text(200)
        .min(1)
        .regex(/^[\w.-]+$/, 'Use letters, digits, ".", "_" and "-".'),
    )
    .min(1)
    .max(50),
  workspace: text(100).min(1).nullish(),
  region: text(64).nullish(),
});
export const filestoresAnswer = z.object({ filestores: z.array(filestoreSchema) });

export const attachmentSchema = z.object({
  id: z.number().int(),
  complete: z.boolean(),
  input: z.boolean(),
  output: z.boolean(),
  primary: z.boolean(),
  path: z.string(),
  filestore: z.object({ id: z.number().int(), name: z.string() }),
});
export const attachmentsAnswer = z.object({ attachments: z.array(attachmentSchema) });

export const attachmentSpec = z.object({
  id: z.number().int().positive(),
  input: z.boolean().default(false),
  output: z.boolean().default(false),
  path: text(1000).nullish(),
  primary: z.boolean().default(false),
});
export const attachBody = z.object({
  cluster_id: z.number().int().positive(),
  attachments: z.array(attachmentSpec).min(1).max(50),
});

export const signedUrlsBody = z.object({ paths: z.array(storePath).max(10_000) });
export const signedUrlsAnswer = z.object({
  urls: z.record(z.string(), z.string()),
  existing: z.record(z.string(), z.object({ size: z.number().int(), modified: z.number() })),
});
export const blobsAnswer = z.object({
  blobs_with_urls: z.array(
    z.object({ relative_path: z.string(), key: z.string(), size: z.number().int(), url: z.string() }),
  ),
});

export const fsParams = z.object({ fs_id: id });
export const directionParams = fsParams.extend({ direction: z.enum(['upload', 'download']) });
export const statusParams = fsParams.extend({ action: z.enum(['start', 'finish']) });
export const nameParams = z.object({ name: text(200).min(1) });
export const nameQuery = z.object({ workspace: text(100).min(1).optional() });
export const clusterParams = z.object({ cluster_id: id });
export const vmParams = z.object({ vm_role: z.enum(['scheduler', 'worker']) });
export const blobQuery = z.object({
  path: storePath,
  expires: z.coerce.number().int().min(0),
  signature: text(100).min(1),
});
