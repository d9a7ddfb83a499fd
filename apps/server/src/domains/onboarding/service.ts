import { and, desc, eq, gt, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  banners,
  clientInteractions,
  interactions,
  interactionTypes,
  type User,
  userFlags,
} from '../../db/schema/index.js';
import { fieldError } from '../../http/errors.js';
import { type PageQuery, paginate } from '../../http/pagination.js';
import type { z } from '../../http/zod.js';
import { isoTime, isoTimeOrNull } from '../../lib/time.js';
import { hasWorkspaceWithCompletedSetup, memberWorkspaceBySlug } from '../identity/index.js';
import { type FlagName, GET_STARTED_CLIENT, GET_STARTED_COMPUTED, INTERACTION_TYPES } from './catalog.js';
import type { clientInteractionBody } from './schemas.js';

/** Reference rows every install has; safe to run at every start. */
export async function seedInteractionTypes(db: Db): Promise<void> {
  await db
    .insert(interactionTypes)
    .values(INTERACTION_TYPES.map((name) => ({ name })))
    .onConflictDoNothing();
}

export async function listInteractionTypes(db: Db, page: PageQuery) {
  const { rows, count } = await paginate(
    page,
    db.select().from(interactionTypes).orderBy(interactionTypes.name),
    db.$count(interactionTypes),
  );
  return { count, results: rows };
}

export async function listInteractions(db: Db, user: User, page: PageQuery) {
  const where = eq(interactions.userId, user.id);
  const { rows, count } = await paginate(
    page,
    db.select().from(interactions).where(where).orderBy(desc(interactions.created), desc(interactions.id)),
    db.$count(interactions, where),
  );
  return { count, results: rows.map(presentInteraction) };
}

const presentInteraction = (row: typeof interactions.$inferSelect) => ({
  id: row.id,
  interaction_type: row.interactionType,
  created: isoTime(row.created),
});

export async function recordInteraction(db: Db, user: User, type: string) {
  const [known] = await db.select().from(interactionTypes).where(eq(interactionTypes.name, type)).limit(1);
  if (!known) throw fieldError('interaction_type', `Invalid interaction type "${type}".`);
  const [row] = await db.insert(interactions).values({ userId: user.id, interactionType: type }).returning();
  return presentInteraction(row!);
}

export async function getFlags(db: Db, user: User, names: readonly FlagName[]) {
  const rows = await db
    .select()
    .from(userFlags)
    .where(and(eq(userFlags.userId, user.id), inArray(userFlags.name, [...names])));
  const completed = new Map(rows.map((r) => [r.name, r.completed]));
  // Joining a workspace that is set up already gives access to it, though no setup completed then.
  const access = 'access-to-account-with-completed-setup';
  if (names.includes(access) && !completed.get(access))
    completed.set(access, await hasWorkspaceWithCompletedSetup(db, user.id));
  return names.map((name) => ({ name, completed: completed.get(name) ?? false }));
}

export async function setFlag(
  db: Db,
  userId: number,
  name: FlagName,
  completed: boolean,
  data?: Record<string, unknown>,
) {
  await db
    .insert(userFlags)
    .values({ userId, name, completed, data })
    .onConflictDoUpdate({
      target: [userFlags.userId, userFlags.name],
      set: { completed, updated: new Date(), ...(data !== undefined && { data }) },
    });
  return { name, completed };
}

export async function getStarted(db: Db, user: User) {
  const [row] = await db
    .select()
    .from(userFlags)
    .where(and(eq(userFlags.userId, user.id), eq(userFlags.name, 'get-started')))
    .limit(1);
  return { completed: row?.completed ?? false, data: row?.data ?? {} };
}

export async function updateGetStarted(
  db: Db,
  user: User,
  input: { completed?: boolean | undefined; data?: Record<string, unknown> | undefined },
) {
  const current = await getStarted(db, user);
  const completed = input.completed ?? current.completed;
  const data = input.data ? { ...current.data, ...input.data } : current.data;
  await setFlag(db, user.id, 'get-started', completed, data);
  return { completed, data };
}

/** `ValueError` of `ValueError: bad`, `distributed.comm.CommClosedError` of `...: closed`. */
export function errorClassOf(message: string | null | undefined): string | null {
  const found = message?.match(/^\s*([A-Za-z_][\w.]{0,199}):/);
  return found ? found[1]! : null;
}

/** The workspace a report names (`additional_data.workspace`, a slug), when it is one of the user's. */
async function reportedWorkspace(db: Db, user: User, data: unknown): Promise<number | null> {
  const named =
    (data as { workspace?: unknown; account?: unknown } | null)?.workspace ??
    (data as { account?: unknown } | null)?.account;
  if (typeof named !== 'string' || named.length > 100) return null;
  return memberWorkspaceBySlug(db, user.id, named);
}

/**
 * Ticks a step of the user's get-started checklist that only the server sees (merged into the
 * `get-started` flag's data); a step already ticked keeps its first value.
 */
export async function recordGetStartedStep(db: Db, userId: number, step: string, value: unknown = true) {
  await db
    .insert(userFlags)
    .values({ userId, name: 'get-started', completed: false, data: { [step]: value } })
    .onConflictDoUpdate({
      target: [userFlags.userId, userFlags.name],
      set: { data: sql`coalesce(${userFlags.data}, '{}'::jsonb) || excluded.data`, updated: new Date() },
      setWhere: sql`not (coalesce(${userFlags.data}, '{}'::jsonb) ? ${step})`,
    });
}

/** A scheduler reported computations: the first one on a cluster a user created ticks their "compute" step. */
export const recordComputed = (db: Db, creatorId: number, clusterId: number) =>
  recordGetStartedStep(db, creatorId, GET_STARTED_COMPUTED, { cluster_id: clusterId });

/** The Python client was used (terminal sign-in, or a report carrying its version): ticks "install". */
export const recordClientUsed = (db: Db, userId: number, version: string | null = null) =>
  recordGetStartedStep(db, userId, GET_STARTED_CLIENT, { version });

export async function recordClientInteraction(
  db: Db,
  user: User,
  input: z.infer<typeof clientInteractionBody>,
) {
  const clientVersion = input.cumulus_version ?? input.coiled_version ?? null;
  const [row] = await db
    .insert(clientInteractions)
    .values({
      userId: user.id,
      action: input.action,
      version: input.version ?? null,
      success: input.success ?? null,
      clientVersion,
      source: input.source ?? (clientVersion ? 'python' : 'console'),
      workspaceId: await reportedWorkspace(db, user, input.additional_data),
      errorMessage: input.error_message ?? null,
      errorClass: input.error_class ?? errorClassOf(input.error_message),
      additionalText: input.additional_text ?? null,
      additionalData: input.additional_data ?? null,
    })
    .returning({ id: clientInteractions.id });
  if (clientVersion) await recordClientUsed(db, user.id, clientVersion);
  return { id: row!.id };
}

/** Banners whose window contains now. */
export async function activeBanners(db: Db, page: PageQuery) {
  const now = new Date();
  const where = and(lte(banners.start, now), or(isNull(banners.end), gt(banners.end, now)));
  const { rows, count } = await paginate(
    page,
    db.select().from(banners).where(where).orderBy(desc(banners.start)),
    db.$count(banners, where),
  );
  return {
    count,
    results: rows.map((b) => ({
      id: b.id,
      title: b.title,
      message: b.message,
      level: b.level,
      start: isoTime(b.start),
      end: isoTimeOrNull(b.end),
    })),
  };
}
