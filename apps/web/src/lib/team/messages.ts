import { isApiError } from '@/lib/api/errors';

// The Team area's messages.
export const TEAM_MESSAGES = {
  alreadyMember:
    'User is already a member of this organization, we redirected you to the edit page to continue.',
  alreadyInvited: 'This address already has an invitation, we redirected you to the edit page to continue.',
  uniqueWorkspaceName: 'Workspace names must be globally unique',
  workspaceCreated: 'Workspace created',
  organizationCreated: 'Organization created',
  inviteResent: 'Invite email resent',
  inviteSent: (email: string) => `Invitation sent to ${email}`,
  // With no mail server the invitation is printed in the server's log, not sent (say so).
  inviteKept: (email: string) =>
    `Invitation to ${email} printed in the server log (no mail server is configured)`,
  inviteKeptAgain: 'Invite email printed in the server log again (no mail server is configured)',
  workspaceLimit:
    "Your organization has reached your plan's workspace limit. See plans to enable adding more workspaces.",
  memberLimit: (used: number, limit: number) =>
    `Your organization is using ${used} of ${limit} allowed seats. Upgrade your plan to add more members.`,
  contactAdmin: 'Contact your organization admin to upgrade/change your plan',
  contactEnterprise: 'Contact us to make changes to your Enterprise plan',
  organizationIdRequired: 'Organization ID is required',
  memberIdRequired: 'Member ID is required',
  inviteIdRequired: 'Invite ID is required',
} as const;

/** 'Error: {message}', the server's own words when it gave any. */
export function errorText(error: unknown): string {
  if (isApiError(error)) {
    const field = Object.values(error.fields)[0]?.[0];
    return `Error: ${error.detail ?? error.nonFieldErrors[0] ?? field ?? error.message}`;
  }
  return `Error: ${error instanceof Error ? error.message : String(error)}`;
}

/** A route parameter the page cannot work without; its absence is a bug, shown by the error page. */
export function requireParam(value: string | undefined, message: string): number {
  const id = Number(value);
  if (!value || !Number.isInteger(id) || id <= 0) throw new Error(message);
  return id;
}
