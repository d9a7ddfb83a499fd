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
