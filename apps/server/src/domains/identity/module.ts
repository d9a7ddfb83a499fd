import {
  apiTokens,
  authSessions,
  customGroups,
  emailVerifications,
  identityLinkTokens,
  loginFailures,
  organizationCustomGroups,
  organizationInvites,
  organizationMemberships,
  organizationSsoConnections,
  organizationSsoDomains,
  organizations,
  passwordResets,
  userIdentities,
  userProfiles,
  users,
  workspaceInvites,
  workspaceMemberships,
  workspaces,
} from '../../db/schema/index.js';
import type { DomainModule, LoopContext } from '../../domain-module.js';
import { identityAccessResolvers } from './access/resolve.js';
import { pruneCredentials } from './auth/authenticator.js';
import { registerAuthRoutes } from './auth/routes.js';
import { registerGroupRoutes } from './groups/routes.js';
import { registerInviteRoutes } from './invites/routes.js';
import { registerOrganizationRoutes } from './organizations/routes.js';
import type { IdentityDeps } from './ports.js';
import { registerOrganizationSsoRoutes } from './sign-in/organization-routes.js';
import { registerProviderRoutes } from './sign-in/routes.js';
import { registerTokenRoutes } from './tokens/routes.js';
import { registerUserRoutes } from './users/routes.js';
import { registerWorkspaceRoutes } from './workspaces/routes.js';

/** The identity domain as the assembly sees it (domain-module.ts). */
export const identityModule: DomainModule<IdentityDeps> = {
  name: 'identity',
  routes: [
    registerAuthRoutes,
    registerProviderRoutes,
    registerTokenRoutes,
    registerUserRoutes,
    registerOrganizationRoutes,
    registerOrganizationSsoRoutes,
    registerWorkspaceRoutes,
    registerInviteRoutes,
    registerGroupRoutes,
  ],
  loops: [{ chore: 'prune credentials', run: ({ deps }: LoopContext) => pruneCredentials(deps.db) }],
  accessResolvers: (deps) => identityAccessResolvers(deps.db),
  tables: {
    users,
    userProfiles,
    userIdentities,
    identityLinkTokens,
    organizationSsoConnections,
    organizationSsoDomains,
    authSessions,
    apiTokens,
    emailVerifications,
    passwordResets,
    loginFailures,
    organizations,
    organizationMemberships,
    workspaces,
    workspaceMemberships,
    organizationInvites,
    workspaceInvites,
    customGroups,
    organizationCustomGroups,
  },
};
