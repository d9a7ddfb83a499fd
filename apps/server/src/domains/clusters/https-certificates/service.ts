import { and, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { clusters, httpsCertificates, type User } from '../../../db/schema/index.js';
import { notFound } from '../../../http/errors.js';
import type { WorkspaceAccess } from '../../identity/index.js';
import { sqlLiveCluster } from '../states.js';
import type { CertificateStatus } from './schemas.js';

/**
 * Custom dashboard subdomains. Issuing a certificate needs a DNS zone to publish the name in and
 * an ACME account to prove it; a self-hosted Cumulus has neither, so a request is recorded (the
 * subdomain is then the workspace's) and answered `error` with the reason, unless the name is
 * already taken (`in use`).
 */
const noIssuer = (sub: string) =>
  `This Cumulus server has no DNS zone or ACME (Let's Encrypt) account configured, so it cannot ` +
  `issue a certificate for "${sub}". Dashboards are served at their scheduler's address: create ` +
  'the cluster without custom_subdomain.';

interface Answer {
  subdomain: string;
  status: CertificateStatus;
  message: string;
}

/** Why `sub` is taken for this workspace, or null: another workspace holds it, or a running cluster uses it. */
async function takenBecause(db: Db, workspaceId: number, sub: string): Promise<string | null> {
  const [held] = await db
    .select({ id: httpsCertificates.id })
    .from(httpsCertificates)
    .where(and(eq(httpsCertificates.subdomain, sub), ne(httpsCertificates.workspaceId, workspaceId)));
  if (held) return `The subdomain "${sub}" belongs to another workspace.`;
  const [user] = await db
    .select({ name: clusters.name, workspaceId: clusters.workspaceId })
    .from(clusters)
    .where(and(sql`lower(${clusters.options}->>'custom_subdomain') = ${sub}`, sqlLiveCluster))
    .limit(1);
  if (!user) return null;
  return user.workspaceId === workspaceId
    ? `The subdomain "${sub}" is in use by the running cluster ${user.name}.`
    : `The subdomain "${sub}" is in use by a running cluster of another workspace.`;
}

/** `POST clusters/account/{ws}/https-certificate {subdomain}`. */
export async function requestCertificate(
  db: Db,
  user: User,
  access: WorkspaceAccess,
  sub: string,
): Promise<Answer> {
  const taken = await takenBecause(db, access.workspace.id, sub);
  if (taken) return { subdomain: sub, status: 'in use', message: taken };
  const answer = { status: 'error' as const, message: noIssuer(sub) };
  await db
    .insert(httpsCertificates)
    .values({
      workspaceId: access.workspace.id,
      subdomain: sub,
      requestedById: user.id,
      status: answer.status,
      message: answer.message,
    })
    .onConflictDoUpdate({
      target: httpsCertificates.subdomain,
      set: { status: answer.status, message: answer.message, requestedById: user.id, updated: new Date() },
      // Only the workspace holding the name renews it; a race with another workspace leaves it theirs.
      setWhere: eq(httpsCertificates.workspaceId, access.workspace.id),
    });
  return certificateStatus(db, access, sub);
}

/** `GET clusters/account/{ws}/https-certificate/{subdomain}`: the status of this workspace's request. */
export async function certificateStatus(db: Db, access: WorkspaceAccess, sub: string): Promise<Answer> {
  const taken = await takenBecause(db, access.workspace.id, sub);
  if (taken) return { subdomain: sub, status: 'in use', message: taken };
  const [row] = await db
    .select()
    .from(httpsCertificates)
    .where(and(eq(httpsCertificates.subdomain, sub), eq(httpsCertificates.workspaceId, access.workspace.id)));
  if (!row) throw notFound(`No certificate was requested for "${sub}" in ${access.workspace.name}.`);
  return { subdomain: sub, status: row.status as CertificateStatus, message: row.message };
}
