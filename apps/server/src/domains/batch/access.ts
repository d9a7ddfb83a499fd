import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/client.js';
import { type BatchJob, batchJobs } from '../../db/schema/index.js';
import { type AccessResolver, accessResolver } from '../../http/access.js';
import { currentUser } from '../../http/auth.js';
import { fieldError, notFound } from '../../http/errors.js';
import { numericParam, type WorkspaceAccess, workspaceAccessBy } from '../identity/index.js';

export const jobNotFound = () => notFound('Batch job not found.');

export interface JobAccess {
  job: BatchJob;
  access: WorkspaceAccess;
}

/**
 * What a route may ask of batch's access (resolved by the one pre-handler, http/access.ts):
 * `job: 'read'` is the job `job_id` of the path, of a workspace the caller reads (anything else is
 * the job's 404). Its workspace access comes along as `request.access.workspace`.
 */
export type JobRequirement = 'read';

declare module '../../http/access.js' {
  interface AccessNeeds {
    job?: JobRequirement;
  }
  interface RequestAccess {
    job?: JobAccess;
  }
}

export function batchAccessResolvers(db: Db): AccessResolver[] {
  return [
    accessResolver('job', async (request) => {
      const jobId = numericParam(request, 'job_id');
      const [job] = await db.select().from(batchJobs).where(eq(batchJobs.id, jobId)).limit(1);
      if (!job) throw jobNotFound();
      let access: WorkspaceAccess;
      try {
        access = await workspaceAccessBy(db, currentUser(request), { id: job.workspaceId });
      } catch {
        throw jobNotFound();
      }
      request.access.job = { job, access };
      request.access.workspace = access;
    }),
  ];
}

/** What a route that declared `job` was given. */
export function jobOf(request: FastifyRequest): JobAccess {
  const found = request.access?.job;
  if (!found) throw new Error(`${request.routeOptions.url} uses job access it does not declare`);
  return found;
}

/**
 * The workspace a job is submitted to (the `workspace` key of the routes that submit): the one the
 * spec names, else the submitter's default workspace.
 */
export function submittedTo(request: FastifyRequest): { slug: string } | { id: number } {
  const slug = (request.body as { workspace?: string | null } | undefined)?.workspace;
  if (slug) return { slug };
  const { defaultWorkspaceId } = currentUser(request);
  if (defaultWorkspaceId === null) throw fieldError('workspace', 'Name the workspace to run the job in.');
  return { id: defaultWorkspaceId };
}
