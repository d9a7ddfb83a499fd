/**
 * modules/access answers "what may this user do here" for workspaces and organizations, for every
 * module; it depends on the database alone, so any module may use it:
 * - members of a workspace, admins of its organization and staff read it; others get a 404;
 * - members of an organization (or of one of its workspaces) and staff read the organization;
 * - organization admins manage workspaces, roles and everything below;
 * - workspace admins add teammates to, and edit member rows and credit limits of, their workspaces.
 * Staff read everything but change only what they administer.
 */
export const MESSAGES = {
  addTeammates: 'You must be an organization or workspace admin to add team mates.',
  addWorkspaces: 'You must be an organization admin to add workspaces.',
  organizationAdmin: 'You must be an organization admin to do this.',
  notWorkspaceAdmin: (workspace: string) => `You are not an admin of ${workspace}`,
} as const;
