import { and, eq, inArray, isNotNull, isNull, ne } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import {
  type Organization,
  type OrganizationSsoConnection,
  organizationMemberships,
  organizationSsoConnections,
  organizationSsoDomains,
  organizations,
  type User,
  workspaceMemberships,
  workspaces,
} from '../../../db/schema/index.js';
import type { Deps } from '../../../deps.js';
import { ApiError, badRequest, fieldError, notFound } from '../../../http/errors.js';
import type { z } from '../../../http/zod.js';
import { randomHex, SecretBox } from '../../../lib/crypto.js';
import { uniqueViolation } from '../../../lib/db-errors.js';
import { parseEmail } from '../auth/rules.js';
import { domainRecord, type TxtLookup } from './domain-proof.js';
import { issuerFieldMessage, issuerRefusal } from './issuer-guard.js';
import type { organizationSsoSchema, ssoDomainSchema } from './organization-schemas.js';

/** The client secrets of organizations' connections are sealed with this purpose's key. */
export const sealOf = (secret: string) => new SecretBox(secret, 'org-sso-secret-v1');

export const ORG_SSO_MESSAGES = {
  secretRequired: 'Enter the client secret your identity provider gave you.',
  workspaceNotInOrganization: 'New members can only join workspaces of this organization.',
  domainClaimed: (domain: string) => `${domain} is already proven by another organization.`,
  domainAlreadyAdded: (domain: string) => `${domain} is already one of this organization's domains.`,
  recordMissing: (domain: string, value: string) =>
    `No TXT record "${value}" was found at ${domain}. DNS changes can take a while to appear; try again later.`,
  dnsFailed: (domain: string) => `The DNS look-up of ${domain} failed. Try again in a moment.`,
  requireNeedsProof:
    'Require SSO needs a connection and at least one verified domain, so members can still sign in.',
} as const;

export type DomainView = z.infer<typeof ssoDomainSchema>;
export type OrganizationSsoView = z.infer<typeof organizationSsoSchema>;

const domainView = (row: typeof organizationSsoDomains.$inferSelect): DomainView => ({
  id: row.id,
  domain: row.domain,
  txt_name: row.domain,
  txt_value: domainRecord(row.token),
  verified: row.verifiedAt !== null,
  verified_at: row.verifiedAt?.toISOString() ?? null,
  verified_by: (row.verifiedBy as DomainView['verified_by']) ?? null,
});

export async function organizationSso(deps: Deps, org: Organization): Promise<OrganizationSsoView> {
  const { db, config } = deps;
  const [connection] = await db
    .select()
    .from(organizationSsoConnections)
    .where(eq(organizationSsoConnections.organizationId, org.id));
  const domains = await db
    .select()
    .from(organizationSsoDomains)
    .where(eq(organizationSsoDomains.organizationId, org.id))
    .orderBy(organizationSsoDomains.domain);
  return {
    connection: connection
      ? {
          issuer: connection.issuer,
          client_id: connection.clientId,
          client_secret_set: true,
          join_workspace_ids: connection.joinWorkspaceIds,
        }
      : null,
    domains: domains.map(domainView),
    require_sso: connection?.requireSso ?? false,
    redirect_uri: `${config.publicUrl}/auth/sso/callback`,
  };
}

export interface ConnectionInput {
  issuer: string;
  client_id: string;
  /** Omitted: keep the secret already set. */
  client_secret?: string | undefined;
  join_workspace_ids: number[];
}

export async function setConnection(deps: Deps, org: Organization, input: ConnectionInput): Promise<void> {
  const { db, config } = deps;
  const issuer = input.issuer.replace(/\/+$/, '');
  const refused = await issuerRefusal(config.signIn.allowedIssuers, issuer);
  if (refused) throw fieldError('issuer', issuerFieldMessage(refused));
  const wanted = [...new Set(input.join_workspace_ids)];
  if (wanted.length > 0) {
    const found = await db
      .select({ id: workspaces.id })
      .from(workspaces)
      .where(and(inArray(workspaces.id, wanted), eq(workspaces.organizationId, org.id)));
    if (found.length !== wanted.length) {
      throw badRequest(ORG_SSO_MESSAGES.workspaceNotInOrganization, 'SSO_WORKSPACE_NOT_IN_ORGANIZATION');
    }
  }
  const [existing] = await db
    .select()
    .from(organizationSsoConnections)
    .where(eq(organizationSsoConnections.organizationId, org.id));
  const sealed = input.client_secret
    ? sealOf(config.secret).encrypt(input.client_secret)
    : existing?.clientSecretSealed;
  if (!sealed) throw badRequest(ORG_SSO_MESSAGES.secretRequired, 'SSO_CLIENT_SECRET_REQUIRED');
  const values = {
    issuer,
    clientId: input.client_id,
    clientSecretSealed: sealed,
    joinWorkspaceIds: wanted,
    updated: new Date(),
  };
  await db
    .insert(organizationSsoConnections)
    .values({ organizationId: org.id, ...values })
    .onConflictDoUpdate({ target: organizationSsoConnections.organizationId, set: values });
}

/** An email domain, lower case, without a trailing dot. */
export const normalizeDomain = (domain: string) => domain.trim().toLowerCase().replace(/\.$/, '');

async function provenElsewhere(db: Db, orgId: number, domain: string): Promise<boolean> {
  const [row] = await db
    .select({ id: organizationSsoDomains.id })
    .from(organizationSsoDomains)
    .where(
      and(
        eq(organizationSsoDomains.domain, domain),
        ne(organizationSsoDomains.organizationId, orgId),
        isNotNull(organizationSsoDomains.verifiedAt),
      ),
    )
    .limit(1);
  return row !== undefined;
}

export async function addDomain(db: Db, org: Organization, raw: string): Promise<DomainView> {
  const domain = normalizeDomain(raw);
  if (await provenElsewhere(db, org.id, domain)) {
    throw new ApiError(409, { detail: ORG_SSO_MESSAGES.domainClaimed(domain), code: 'SSO_DOMAIN_CLAIMED' });
  }
  try {
    const [row] = await db
      .insert(organizationSsoDomains)
      .values({ organizationId: org.id, domain, token: randomHex(16) })
      .returning();
    return domainView(row!);
  } catch (err) {
    if (uniqueViolation(err) === 'organization_sso_domains_org_domain_key') {
      throw new ApiError(409, {
        detail: ORG_SSO_MESSAGES.domainAlreadyAdded(domain),
        code: 'SSO_DOMAIN_EXISTS',
      });
    }
    throw err;
  }
}

async function domainRow(db: Db, domainId: number, orgId: number | null) {
  const [row] = await db
    .select()
    .from(organizationSsoDomains)
    .where(
      orgId === null
        ? eq(organizationSsoDomains.id, domainId)
        : and(eq(organizationSsoDomains.id, domainId), eq(organizationSsoDomains.organizationId, orgId)),
    );
  if (!row) throw notFound();
  return row;
}

async function markVerified(
  db: Db,
  row: typeof organizationSsoDomains.$inferSelect,
  by: 'dns' | 'staff',
  staffId: number | null,
): Promise<DomainView> {
  if (await provenElsewhere(db, row.organizationId, row.domain)) {
    throw new ApiError(409, {
      detail: ORG_SSO_MESSAGES.domainClaimed(row.domain),
      code: 'SSO_DOMAIN_CLAIMED',
    });
  }
  const [updated] = await db
    .update(organizationSsoDomains)
    .set({ verifiedAt: new Date(), verifiedBy: by, verifiedByStaffId: staffId })
    .where(eq(organizationSsoDomains.id, row.id))
    .returning();
  return domainView(updated!);
}

/** Proves a domain by the TXT record at it holding this domain's token. */
export async function verifyDomainByDns(
  db: Db,
  lookup: TxtLookup,
  org: Organization,
  domainId: number,
): Promise<DomainView> {
  const row = await domainRow(db, domainId, org.id);
  if (row.verifiedAt) return domainView(row);
  const expected = domainRecord(row.token);
  let records: string[];
  try {
    records = await lookup(row.domain);
  } catch {
    throw new ApiError(502, { detail: ORG_SSO_MESSAGES.dnsFailed(row.domain), code: 'SSO_DNS_FAILED' });
  }
  if (!records.some((r) => r.trim() === expected)) {
    throw badRequest(ORG_SSO_MESSAGES.recordMissing(row.domain, expected), 'SSO_DOMAIN_RECORD_MISSING');
  }
  return markVerified(db, row, 'dns', null);
}

/** A staff member's decision that the organization owns the domain (for those who cannot set DNS). */
export async function verifyDomainByStaff(db: Db, staff: User, domainId: number): Promise<DomainView> {
  const row = await domainRow(db, domainId, null);
  if (row.verifiedAt) return domainView(row);
  return markVerified(db, row, 'staff', staff.id);
}

/** Domains waiting for proof, for staff to decide on. */
export async function pendingDomains(db: Db) {
  const rows = await db
    .select({ domain: organizationSsoDomains, organization: organizations.name })
    .from(organizationSsoDomains)
    .innerJoin(organizations, eq(organizations.id, organizationSsoDomains.organizationId))
    .where(isNull(organizationSsoDomains.verifiedAt))
    .orderBy(organizationSsoDomains.created);
  return rows.map((r) => ({
    ...domainView(r.domain),
    organization_id: r.domain.organizationId,
    organization: r.organization,
  }));
}

export async function removeDomain(db: Db, org: Organization, domainId: number): Promise<void> {
  await domainRow(db, domainId, org.id);
  await db.transaction(async (tx) => {
    await tx.delete(organizationSsoDomains).where(eq(organizationSsoDomains.id, domainId));
    // Without a verified domain no member could sign in through the connection: SSO stops being required.
    const [left] = await tx
      .select({ id: organizationSsoDomains.id })
      .from(organizationSsoDomains)
      .where(
        and(eq(organizationSsoDomains.organizationId, org.id), isNotNull(organizationSsoDomains.verifiedAt)),
      )
      .limit(1);
    if (!left) {
      await tx
        .update(organizationSsoConnections)
        .set({ requireSso: false })
        .where(eq(organizationSsoConnections.organizationId, org.id));
    }
  });
}

export async function setRequireSso(db: Db, org: Organization, requireSso: boolean): Promise<void> {
  if (requireSso) {
    const view = await db
      .select({ id: organizationSsoDomains.id })
      .from(organizationSsoDomains)
      .innerJoin(
        organizationSsoConnections,
        eq(organizationSsoConnections.organizationId, organizationSsoDomains.organizationId),
      )
      .where(
        and(eq(organizationSsoDomains.organizationId, org.id), isNotNull(organizationSsoDomains.verifiedAt)),
      )
      .limit(1);
    if (view.length === 0) throw badRequest(ORG_SSO_MESSAGES.requireNeedsProof, 'SSO_REQUIRE_NEEDS_PROOF');
  }
  const updated = await db
    .update(organizationSsoConnections)
    .set({ requireSso, updated: new Date() })
    .where(eq(organizationSsoConnections.organizationId, org.id))
    .returning({ id: organizationSsoConnections.organizationId });
  if (updated.length === 0 && requireSso) {
    throw badRequest(ORG_SSO_MESSAGES.requireNeedsProof, 'SSO_REQUIRE_NEEDS_PROOF');
  }
}

export interface OrganizationConnection {
  organizationId: number;
  organizationName: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  joinWorkspaceIds: number[];
}

const opened = (deps: Deps, row: OrganizationSsoConnection, name: string): OrganizationConnection => ({
  organizationId: row.organizationId,
  organizationName: name,
  issuer: row.issuer,
  clientId: row.clientId,
  clientSecret: sealOf(deps.config.secret).decrypt(row.clientSecretSealed),
  joinWorkspaceIds: row.joinWorkspaceIds,
});

/** The connection of the organization that proved the email's domain; null: none does. */
export async function connectionForEmail(deps: Deps, email: string): Promise<OrganizationConnection | null> {
  const domain = parseEmail(email)?.domain;
  if (!domain) return null;
  const [row] = await deps.db
    .select({ connection: organizationSsoConnections, name: organizations.name })
    .from(organizationSsoDomains)
    .innerJoin(
      organizationSsoConnections,
      eq(organizationSsoConnections.organizationId, organizationSsoDomains.organizationId),
    )
    .innerJoin(organizations, eq(organizations.id, organizationSsoDomains.organizationId))
    .where(and(eq(organizationSsoDomains.domain, domain), isNotNull(organizationSsoDomains.verifiedAt)))
    .limit(1);
  return row ? opened(deps, row.connection, row.name) : null;
}

export async function connectionOf(
  deps: Deps,
  organizationId: number,
): Promise<OrganizationConnection | null> {
  const [row] = await deps.db
    .select({ connection: organizationSsoConnections, name: organizations.name })
    .from(organizationSsoConnections)
    .innerJoin(organizations, eq(organizations.id, organizationSsoConnections.organizationId))
    .where(eq(organizationSsoConnections.organizationId, organizationId));
  return row ? opened(deps, row.connection, row.name) : null;
}

/** Whether the organization proved the address's domain (its connection vouches only for those). */
export async function ownsEmailDomain(db: Db, organizationId: number, email: string): Promise<boolean> {
  const domain = parseEmail(email)?.domain;
  if (!domain) return false;
  const [row] = await db
    .select({ id: organizationSsoDomains.id })
    .from(organizationSsoDomains)
    .where(
      and(
        eq(organizationSsoDomains.organizationId, organizationId),
        eq(organizationSsoDomains.domain, domain),
        isNotNull(organizationSsoDomains.verifiedAt),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** A first sign-in through the connection: the user joins its workspaces (as member) and the organization. */
export async function joinConnectionWorkspaces(db: Db, connection: OrganizationConnection, userId: number) {
  await db.transaction(async (tx) => {
    await tx
      .insert(organizationMemberships)
      .values({ organizationId: connection.organizationId, userId, role: 'member' })
      .onConflictDoNothing();
    if (connection.joinWorkspaceIds.length === 0) return;
    const present = await tx
      .select({ id: workspaces.id })
      .from(workspaces)
      .where(
        and(
          inArray(workspaces.id, connection.joinWorkspaceIds),
          eq(workspaces.organizationId, connection.organizationId),
        ),
      );
    if (present.length === 0) return;
    await tx
      .insert(workspaceMemberships)
      .values(present.map((w) => ({ workspaceId: w.id, userId, isAdmin: false })))
      .onConflictDoNothing();
  });
}
