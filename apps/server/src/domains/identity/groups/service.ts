import { and, asc, eq, inArray, notExists, notInArray } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { customGroups, organizationCustomGroups, organizations } from '../../../db/schema/index.js';
import { notFound } from '../../../http/errors.js';
import { type OffsetQuery, paginate } from '../../../http/pagination.js';
import { presentOrganizationBrief } from '../organizations/present.js';
import { organizationGroups } from '../organizations/service.js';

/** Custom groups with their organizations (staff). */
export async function listGroups(db: Db, page: OffsetQuery) {
  const { rows: groups, count } = await paginate(
    page,
    db.select().from(customGroups).orderBy(asc(customGroups.name)),
    db.$count(customGroups),
  );
  const members =
    groups.length === 0
      ? []
      : await db
          .select({ groupId: organizationCustomGroups.groupId, organization: organizations })
          .from(organizationCustomGroups)
          .innerJoin(organizations, eq(organizations.id, organizationCustomGroups.organizationId))
          .where(
            inArray(
              organizationCustomGroups.groupId,
              groups.map((g) => g.id),
            ),
          )
          .orderBy(asc(organizations.name));
  return {
    count,
    items: groups.map((g) => ({
      id: g.id,
      name: g.name,
      organizations: members
        .filter((m) => m.groupId === g.id)
        .map((m) => presentOrganizationBrief(m.organization)),
    })),
  };
}

/**
 * Sets the groups an organization is in (staff). Groups are created on first use and disappear
 * with their last organization.
 */
export async function setOrganizationGroups(db: Db, organizationId: number, names: string[]) {
  const [organization] = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  if (!organization) throw notFound();
  const wanted = [...new Set(names)];
  await db.transaction(async (tx) => {
    if (wanted.length > 0) {
      await tx
        .insert(customGroups)
        .values(wanted.map((name) => ({ name })))
        .onConflictDoNothing();
    }
    const groups = wanted.length
      ? await tx.select().from(customGroups).where(inArray(customGroups.name, wanted))
      : [];
    await tx.delete(organizationCustomGroups).where(
      and(
        eq(organizationCustomGroups.organizationId, organizationId),
        groups.length
          ? notInArray(
              organizationCustomGroups.groupId,
              groups.map((g) => g.id),
            )
          : undefined,
      ),
    );
    if (groups.length > 0) {
      await tx
        .insert(organizationCustomGroups)
        .values(groups.map((g) => ({ organizationId, groupId: g.id })))
        .onConflictDoNothing();
    }
    await tx
      .delete(customGroups)
      .where(
        notExists(
          tx
            .select({ one: organizationCustomGroups.groupId })
            .from(organizationCustomGroups)
            .where(eq(organizationCustomGroups.groupId, customGroups.id)),
        ),
      );
  });
  return { organization_id: organizationId, groups: await organizationGroups(db, organizationId) };
}
