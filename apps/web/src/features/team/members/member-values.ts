import type { InviteDetails } from '@/data/organizations/invite-query';
import type { AddMemberBody } from '@/data/organizations/member-add-mutation';
import type { UpdateMemberBody } from '@/data/organizations/member-update-mutation';
import type { Membership } from '@/data/organizations/membership-query';
import type { OrganizationWorkspace } from '@/data/organizations/organization-workspaces-query';
import {
  DEFAULT_CORE_LIMIT,
  DEFAULT_CREDIT_LIMIT,
  type MemberValues,
  type WorkspaceAccessValues,
} from '@/features/team/schemas';

/** A member's or an invite's existing row in one workspace. */
type ExistingRow = Membership['workspaceMemberships'][number] | InviteDetails['workspaceInvites'][number];

/**
 * The form's starting values: one row per workspace the user sees. A new member gets the default
 * limits and, when the organization has a single workspace, access to it; an existing member or
 * invite starts from their rows.
 */
export function initialMemberValues(
  workspaces: readonly Pick<OrganizationWorkspace, 'id'>[],
  existing?: { emailOrUsername: string; role: Membership['role']; rows: readonly ExistingRow[] },
): MemberValues {
  const rows: WorkspaceAccessValues[] = workspaces.map((workspace) => {
    const row = existing?.rows.find((candidate) => candidate.workspaceId === workspace.id);
    return row
      ? {
          workspaceId: workspace.id,
          rowId: row.id,
          access: true,
          isAdmin: row.isAdmin,
          coreLimit: String(row.coreLimit),
          creditLimit: row.creditLimit === null ? '' : String(row.creditLimit),
        }
      : {
          workspaceId: workspace.id,
          access: !existing && workspaces.length === 1,
          isAdmin: false,
          coreLimit: String(DEFAULT_CORE_LIMIT),
          creditLimit: String(DEFAULT_CREDIT_LIMIT),
        };
  });
  return {
    emailOrUsername: existing?.emailOrUsername ?? '',
    organizationAdmin: existing?.role === 'admin',
    workspaces: rows,
  };
}

/**
 * The edit page's starting values after a redirect from Add (the address was a member or had an
 * invitation already): what they have, plus the access the user had just ticked on Add, so
 * saving grants what was asked. Existing rows keep their own limits.
 */
export function withRequested(values: MemberValues, requested: MemberValues | undefined): MemberValues {
  if (!requested) return values;
  return {
    ...values,
    organizationAdmin: values.organizationAdmin || requested.organizationAdmin,
    workspaces: values.workspaces.map((row) => {
      const asked = requested.workspaces.find((r) => r.workspaceId === row.workspaceId);
      return row.access || !asked?.access ? row : { ...asked, rowId: undefined };
    }),
  };
}

/** The rows given access, as the calls take them (limits as numbers; the schema checked them). */
function accessRows(values: MemberValues): NonNullable<UpdateMemberBody['workspaces']> {
  return values.workspaces
    .filter((row) => row.access)
    .map((row) => ({
      ...(row.rowId === undefined ? {} : { id: row.rowId }),
      workspaceId: row.workspaceId,
      isAdmin: row.isAdmin,
      coreLimit: Number(row.coreLimit),
      creditLimit: row.creditLimit.trim() === '' ? null : Number(row.creditLimit),
    }));
}

export const roleOf = (values: MemberValues): 'admin' | 'member' =>
  values.organizationAdmin ? 'admin' : 'member';

export function addMemberBody(values: MemberValues, organizationId: number): AddMemberBody {
  return {
    emailOrUsername: values.emailOrUsername.trim(),
    organizationId,
    role: roleOf(values),
    workspaces: accessRows(values).map(({ id: _id, ...row }) => row),
  };
}

export function updateMemberBody(values: MemberValues): UpdateMemberBody {
  return { role: roleOf(values), workspaces: accessRows(values) };
}
