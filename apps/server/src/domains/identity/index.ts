// biome-ignore-all assist/source/organizeImports: a domain's face reads by topic, not by file.
// identity: who people are (users, sign-in, tokens), where they belong (organizations and their
// plans, workspaces, memberships, invites, groups), what they may do there (access) and what they
// have done and seen (interactions, flags). The lowest domain but platform: it imports no other.
// Other domains import this file only.

// Routes.
export { registerProviderRoutes } from './sign-in/routes.js';
export { registerOrganizationSsoRoutes } from './sign-in/organization-routes.js';
export { registerAuthRoutes } from './auth/routes.js';
export { registerGroupRoutes } from './groups/routes.js';
export { registerInteractionRoutes } from './interactions/routes.js';
export { registerInviteRoutes } from './invites/routes.js';
export { registerOrganizationRoutes } from './organizations/routes.js';
export { registerTokenRoutes } from './tokens/routes.js';
export { registerUserRoutes } from './users/routes.js';
export { registerWorkspaceRoutes } from './workspaces/routes.js';

// Access: who may do what in a workspace or organization, resolved once per request by the
// pre-handler (http/access.ts) from what each route's config declares.
export type { OrganizationRequirement, ResolvedScope, WorkspaceRequirement } from './access/resolve.js';
export {
  identityAccessResolvers,
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
export { Authenticator, pruneCredentials } from './auth/authenticator.js';
export { lockedOutUsers, unlockUser } from './auth/lockout.js';
export { findUserBy } from './auth/service.js';
export { unconfirmedEmails } from './auth/unconfirmed.js';
export { searchUsers, setUserStanding } from './users/staff-admin.js';
export { applyStaffEmails, makeStaff } from './users/make-staff.js';

// What users did: milestones other domains tick.
export { recordComputed, seedInteractionTypes, setFlag } from './interactions/service.js';
export { recordCloudSetupComplete } from './interactions/setup-flags.js';

// Plans: an organization's tier and limits, and its billing state (billing changes them through here).
export type { OrganizationBilling } from './plans/organization-billing.js';
export { organizationOfStripeCustomer, updateOrganizationBilling } from './plans/organization-billing.js';
export { creditsRenewAt, monthStart, renewDate } from './plans/periods.js';
export { activePlan, activePlans, changeTier, planGatesOf, updatePlan } from './plans/service.js';
export { planGatesFields } from './plans/schemas.js';
export type { PlanLimits, Tier } from './plans/tiers.js';
export { BILLING_METHODS, NO_BILLING_METHOD, TIER_NAMES, TIERS } from './plans/tiers.js';

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

// Schemas other domains' routes share.
export { organizationParams } from './memberships/schemas.js';
export { accountParams } from './users/schemas.js';
