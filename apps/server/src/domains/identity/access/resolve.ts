import type { FastifyRequest } from 'fastify';
import type { Db } from '../../../db/client.js';
import { type AccessResolver, accessResolver } from '../../../http/access.js';
import { currentUser } from '../../../http/auth.js';
import { ApiError } from '../../../http/errors.js';
import { MESSAGES } from './messages.js';
import { type OrganizationAccess, type OrganizationNeed, organizationAccess } from './organization.js';
import { resolveScope, type ScopeFilters } from './scopes.js';
import {
  readableWorkspaceIds,
  type WorkspaceAccess,
  type WorkspaceKey,
  workspaceAccessBy,
} from './workspace.js';

/**
 * What routes may ask of identity's access (docs/architecture.md, "How a request is authorized"):
 * - `workspace`: the caller's standing in a workspace, by default the one named by the path's
 *   `account` (or `workspace`) slug; `'read'` lets its readers in, `'admin'` its admins; a `key`
 *   finds the workspace elsewhere (a query, a body, a row the path names);
 * - `organization`: the caller's standing in an organization, by default the path's
 *   `organization_id`; `'read'`, `'members'` (who may add teammates) or `'admin'`;
 * - `scope`: which workspaces a list may show (`'filters'`: the list's scope filters in its query;
 *   `'readable'`: every workspace the caller reads).
 * The resolvers below are the only callers of the functions that decide it.
 */
export type WorkspaceNeed = 'read' | 'admin';
export type WorkspaceRequirement =
  | WorkspaceNeed
  | {
      need?: WorkspaceNeed;
      /** The workspace to resolve (throw for a request that must name one); null: none, nothing is resolved. */
      key: (request: FastifyRequest) => WorkspaceKey | null | Promise<WorkspaceKey | null>;
      /** The refusal instead of the workspace's 404, where the request named a row of it, not it. */
      notFound?: () => Error;
    };

export type OrganizationRequirement =
  | OrganizationNeed
  | {
      need?: OrganizationNeed;
      /** The organization to resolve; null: the request names none, and nothing is resolved. */
      key?: (request: FastifyRequest) => number | null | Promise<number | null>;
      /** The refusal for callers who are not admins (need `admin`). */
      adminMessage?: string;
      /** Staff may do what the need asks of admins (plans: the organization's admins, and staff). */
      orStaff?: boolean;
    };

/**
 * - filters: the list's scope filters (`account`, `organization`, `user`, `compound_scope`,
 *   `custom_staff_scope` in its query);
 * - readable: the workspaces the caller reads (their own, and all of the organizations they administer);
 * - visible: the same, but every workspace for staff.
 */
export type ScopeRequirement = 'filters' | 'readable' | 'visible';

export interface ResolvedScope {
  /** Null: every workspace on the server (staff's `all`). */
  workspaceIds: number[] | null;
  /** What this user created only; null: anyone's. */
  userId: number | null;
}

declare module '../../../http/access.js' {
  interface AccessNeeds {
    workspace?: WorkspaceRequirement;
    organization?: OrganizationRequirement;
    scope?: ScopeRequirement;
  }
  interface RequestAccess {
    workspace?: WorkspaceAccess;
    organization?: OrganizationAccess;
    scope?: ResolvedScope;
  }
}

/** The workspace a route's path names: its `account` slug, else its `workspace` slug. */
export function workspaceOfPath(request: FastifyRequest): { slug: string } {
  const params = request.params as { account?: string; workspace?: string };
  const slug = params.account ?? params.workspace;
  if (slug === undefined) throw new Error(`${request.routeOptions.url} names no workspace in its path`);
  return { slug };
}

/** A numeric path parameter, as validated by the route's params schema. */
export function numericParam(request: FastifyRequest, name: string): number {
  return Number((request.params as Record<string, unknown>)[name]);
}

/** Identity's resolvers, for the one pre-handler (http/access.ts). */
export function identityAccessResolvers(db: Db): AccessResolver[] {
  return [
    accessResolver('workspace', async (request, requirement) => {
      const { need, key, notFound } =
        typeof requirement === 'string' ? { need: requirement, key: workspaceOfPath } : requirement;
      const found = await key(request);
      if (found === null) return;
      try {
        request.access.workspace = await workspaceAccessBy(db, currentUser(request), found, need ?? 'read');
      } catch (err) {
        if (notFound && err instanceof ApiError && err.statusCode === 404) throw notFound();
        throw err;
      }
    }),
    accessResolver('organization', async (request, requirement) => {
      const { need, key, adminMessage, orStaff } =
        typeof requirement === 'string' ? { need: requirement } : requirement;
      const id = key ? await key(request) : numericParam(request, 'organization_id');
      if (id === null) return;
      const user = currentUser(request);
      request.access.organization = await organizationAccess(
        db,
        user,
        id,
        orStaff && user.isStaff ? 'read' : (need ?? 'read'),
        adminMessage ?? MESSAGES.organizationAdmin,
      );
    }),
    accessResolver('scope', async (request, requirement) => {
      const user = currentUser(request);
      request.access.scope =
        requirement === 'filters'
          ? await resolveScope(db, user, request.query as ScopeFilters)
          : {
              workspaceIds:
                requirement === 'visible' && user.isStaff ? null : await readableWorkspaceIds(db, user),
              userId: null,
            };
    }),
  ];
}

/** What a route that declared `workspace` was given. */
export function workspaceOf(request: FastifyRequest): WorkspaceAccess {
  return resolved(request, 'workspace');
}

/** What a route that declared `organization` was given. */
export function organizationOf(request: FastifyRequest): OrganizationAccess {
  return resolved(request, 'organization');
}

/** What a route that declared `scope` was given. */
export function scopeOf(request: FastifyRequest): ResolvedScope {
  return resolved(request, 'scope');
}

function resolved<K extends 'workspace' | 'organization' | 'scope'>(request: FastifyRequest, key: K) {
  const found = request.access?.[key];
  if (!found) throw new Error(`${request.routeOptions.url} uses ${key} access it does not declare`);
  return found as NonNullable<(typeof request.access)[K]>;
}
