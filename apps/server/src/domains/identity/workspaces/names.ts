import { inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { workspaces } from '../../../db/schema/index.js';
import { ApiError } from '../../../http/errors.js';

/**
 * Workspaces are found by slug or by name (the Python client matches either), so a new name and
 * its slug may equal no existing name or slug, whatever the case.
 */
export async function isWorkspaceNameFree(db: Db, ...candidates: string[]): Promise<boolean> {
  const lowered = [...new Set(candidates.map((c) => c.toLowerCase()))];
  const [taken] = await db
    .select({ id: workspaces.id })
    .from(workspaces)
    .where(or(inArray(workspaces.slug, lowered), inArray(sql`lower(${workspaces.name})`, lowered)))
    .limit(1);
  return !taken;
}

/** The path key of a workspace: lower-case letters, digits, `_` and single hyphens. */
export const slugify = (name: string): string =>
  name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '-')
    .replace(/^-+|-+$/g, '');

export const nameTaken = () =>
  new ApiError(400, {
    detail: 'Workspace names must be globally unique',
    code: 'REQUIRE_UNIQUE_ACCOUNT_NAMES',
  });
