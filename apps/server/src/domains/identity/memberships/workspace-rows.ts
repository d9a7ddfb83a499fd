import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { type workspaceInvites, type workspaceMemberships, workspaces } from '../../../db/schema/index.js';
import { fieldError, permissionDenied } from '../../../http/errors.js';
import { MESSAGES } from '../access/messages.js';
import type { OrganizationAccess } from '../access/organization.js';
import type { WorkspaceRowInput } from './schemas.js';

/** A member's (or an invite's) row in one workspace. */
export interface CurrentRow {
  id: number;
  workspaceId: number;
  isAdmin: boolean;
  coreLimit: number;
  creditLimit: number | null;
}

export interface RowPlan {
  insert: WorkspaceRowInput[];
  update: Array<{ id: number; row: WorkspaceRowInput }>;
  remove: number[];
}

/**
 * Turns the workspaces a form sends into row changes. The list is the wanted state of the
 * workspaces the caller administers: listed rows are added or updated, unlisted ones removed.
 * Rows of workspaces the caller does not administer may be sent back unchanged and are otherwise
 * left alone; changing one is refused with the workspace's name.
 */
export async function planWorkspaceRows(
  db: Db,
  access: OrganizationAccess,
  current: CurrentRow[],
  wanted: WorkspaceRowInput[] | null | undefined,
): Promise<RowPlan> {
  const plan: RowPlan = { insert: [], update: [], remove: [] };
  if (!wanted) return plan;
  const ids = wanted.map((w) => w.workspace_id);
  if (new Set(ids).size !== ids.length) throw fieldError('workspaces', 'Each workspace may be listed once.');
  const inOrganization = new Map(
    (
      await db
        .select({ id: workspaces.id, name: workspaces.name })
        .from(workspaces)
        .where(eq(workspaces.organizationId, access.organization.id))
    ).map((a) => [a.id, a.name]),
  );
  for (const id of ids) {
    if (!inOrganization.has(id))
      throw fieldError('workspaces', `Workspace ${id} is not part of this organization.`);
  }
  const mayChange = (workspaceId: number) => {
    if (!access.adminsWorkspace(workspaceId))
      throw permissionDenied(
        MESSAGES.notWorkspaceAdmin(inOrganization.get(workspaceId) ?? String(workspaceId)),
      );
  };

  for (const row of wanted) {
    const existing = current.find((c) => c.workspaceId === row.workspace_id);
    if (!existing) {
      mayChange(row.workspace_id);
      plan.insert.push(row);
    } else if (
      existing.isAdmin !== row.is_admin ||
      existing.coreLimit !== row.core_limit ||
      existing.creditLimit !== row.credit_limit
    ) {
      mayChange(row.workspace_id);
      plan.update.push({ id: existing.id, row });
    }
  }
  for (const existing of current) {
    if (!ids.includes(existing.workspaceId) && access.adminsWorkspace(existing.workspaceId))
      plan.remove.push(existing.id);
  }
  return plan;
}

export const isEmptyPlan = (plan: RowPlan) =>
  plan.insert.length === 0 && plan.update.length === 0 && plan.remove.length === 0;

/** Members' rows and invites' rows have the same columns; one writer serves both. */
export async function applyRowPlan(
  tx: Db,
  table: typeof workspaceMemberships | typeof workspaceInvites,
  plan: RowPlan,
  insert: (rows: WorkspaceRowInput[]) => Promise<unknown>,
): Promise<void> {
  if (plan.remove.length > 0) await tx.delete(table).where(inArray(table.id, plan.remove));
  for (const { id, row } of plan.update) {
    await tx
      .update(table)
      .set({ isAdmin: row.is_admin, coreLimit: row.core_limit, creditLimit: row.credit_limit })
      .where(eq(table.id, id));
  }
  if (plan.insert.length > 0) await insert(plan.insert);
}
