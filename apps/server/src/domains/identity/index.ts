// biome-ignore-all assist/source/organizeImports: a domain's face reads by topic, not by file.
// identity: who people are (users, sign-in, tokens), where they belong (organizations, workspaces,
// memberships, invites, groups) and what they may do there (access). The lowest domain but
// platform: it imports no other; what it asks of those above (billing's plans and how an
// organization pays, onboarding's flags) is handed in as IdentityPorts.
// Other domains import this file only.

// Its face to the assembly: routes, access resolvers, the credentials' pruning, its tables.
export { identityModule } from './module.js';

// Access: who may do what in a workspace or organization, resolved once per request by the
// pre-handler (http/access.ts) from what each route's config declares.
export type { OrganizationRequirement, ResolvedScope, WorkspaceRequirement } from './access/resolve.js';
export {
  numericParam,
  organizationOf,
  scopeOf,
  workspaceOf,
  workspaceOfPath,
} from './access/resolve.js';
export type { OrganizationAccess } from './access/organization.js';
export { organizationAccess } from './access/organization.js';
export type { ScopeFilters } from './access/scopes.js';
export { resolveScope } from './access/scopes.js';
export type { WorkspaceAccess, WorkspaceKey } from './access/workspace.js';
export { readableWorkspaceIds, workspaceAccess, workspaceAccessBy } from './access/workspace.js';
export { assertMayRunThere, isOperator } from './access/operator.js';

// Sign-in and users.
export { Authenticator } from './auth/authenticator.js';
export { lockedOutUsers, unlockUser } from './auth/lockout.js';
export { findUserBy } from './auth/service.js';
export { unconfirmedEmails } from './auth/unconfirmed.js';
export { searchUsers, setUserStanding } from './users/staff-admin.js';
export { applyStaffEmails, makeStaff } from './users/make-staff.js';

// What identity asks of the domains above it (billing's plans and organization billing state,
// onboarding's flags), handed in by server.ts.
export type {
  BillingPort,
  IdentityDeps,
  IdentityPorts,
  OnboardingPort,
  PlanPort,
  ShownBilling,
} from './ports.js';

// The fields of its plan the organization answer shows (billing's plan answers share them).
export { planGatesFields, planGatesOf } from './organizations/plan-fields.js';

// Read model: how other domains read identity's tables.
export {
  administeredOrganizationIds,
  findOrganization,
  findWorkspace,
  lockCoreLimit,
  memberLimitView,
  organizationView,
  setWorkspaceCloud,
  staffEmails,
  usernamesOf,
  userView,
  workspaceIdsOf,
  workspaceNamesOf,
  workspacesOfOrganization,
  workspaceView,
} from './read-model.js';

// Who can use a workspace (onboarding's flags ask).
export { hasWorkspaceWithCompletedSetup, memberWorkspaceBySlug, peopleOfWorkspace } from './people.js';

// Schemas other domains' routes share.
export { organizationParams } from './memberships/schemas.js';
export { accountParams } from './users/schemas.js';
