import type { Email } from './outbox.js';

/** Plain-text mails: every link is on its own line so terminals and mail clients can open it. */
const sign = '\n\n— Cumulus';

export const verificationEmail = (to: string, username: string, link: string): Email => ({
  to,
  subject: 'Confirm your email address for Cumulus',
  text: `Hello ${username},\n\nPlease confirm your email address to finish creating your Cumulus account:\n\n${link}\n\nThe link is valid for 3 days. If you did not sign up, you can ignore this email.${sign}`,
});

export const passwordResetEmail = (to: string, username: string, link: string): Email => ({
  to,
  subject: 'Reset your Cumulus password',
  text: `Hello ${username},\n\nSomeone asked to reset the password of your Cumulus account. To choose a new password, open:\n\n${link}\n\nThe link is valid for 24 hours and can be used once. If you did not ask for this, you can ignore this email; your password stays as it is.${sign}`,
});

export const usernameEmail = (to: string, username: string, loginLink: string): Email => ({
  to,
  subject: 'Your Cumulus username',
  text: `Hello,\n\nThe username of the Cumulus account for this email address is:\n\n${username}\n\nSign in at ${loginLink}${sign}`,
});

export interface InviteMail {
  inviter: string;
  organization: string;
  workspaces: string[];
  signupLink: string;
  loginLink: string;
  expiration: Date;
}

export const inviteEmail = (to: string, invite: InviteMail): Email => {
  const where =
    invite.workspaces.length === 0
      ? ''
      : ` with access to ${invite.workspaces.length === 1 ? 'the workspace' : 'the workspaces'} ${invite.workspaces.join(', ')}`;
  return {
    to,
    subject: `${invite.inviter} invited you to ${invite.organization} on Cumulus`,
    text: `Hello,\n\n${invite.inviter} invited you to join the organization ${invite.organization} on Cumulus${where}.\n\nTo accept, create your account with this email address (${to}):\n\n${invite.signupLink}\n\nIf you already have an account with this address, sign in and the invitation is accepted:\n\n${invite.loginLink}\n\nThe invitation expires on ${invite.expiration.toISOString().slice(0, 10)}.${sign}`,
  };
};

export const identityLinkEmail = (to: string, username: string, provider: string, link: string): Email => ({
  to,
  subject: `Link your ${provider} sign-in to your Cumulus account`,
  text: `Hello ${username},\n\nSomeone signed in with ${provider} as ${to}, which is the address of your Cumulus account. To let that ${provider} account sign in to yours, open:\n\n${link}\n\nThe link is valid for 30 minutes and can be used once. If this was not you, ignore this email: nothing is linked.${sign}`,
});
