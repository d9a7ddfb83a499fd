import { ApiError } from '../../../http/errors.js';

/** Refusals of a provider sign-in: each signs no one in and says why, with what to do next. */
export const SIGN_IN_MESSAGES = {
  notConfigured: (name: string) => `Sign-in with ${name} is not configured on this server.`,
  flowMissing:
    'This sign-in was not started in this browser, or it took longer than 10 minutes. Start again from the login page.',
  codeRefused: (name: string) =>
    `${name} refused the sign-in code: it was already used or has expired. Start again from the login page.`,
  tokenInvalid: (name: string, reason: string) =>
    `The answer from ${name} did not pass its checks (${reason}), so no one was signed in.`,
  unreachable: (name: string) => `Cumulus could not reach ${name}. Try again in a moment.`,
  issuerRefused: (name: string, reason: string) =>
    `${name}'s identity provider is at an address Cumulus does not connect to: ${reason} An admin of ${name} can correct its issuer on the Team page's Single sign-on tab.`,
  emailInvalid: (name: string, email: string) =>
    `${name} gave the address "${email}", which is not one valid email address (one @, a name before it and a domain after it), so no one was signed in.`,
  noVerifiedEmail: (name: string) =>
    `Your ${name} account has no verified email address, so it cannot be used to sign in.`,
  // OAuth callback errors: the console turns this one into its own words.
  alreadyRegistered: 'User is already registered with this e-mail address.',
  domainNotOwned: (organization: string) =>
    `${organization}'s identity provider can only sign in addresses in the domains ${organization} has proven.`,
  inactive: 'Unable to log in with provided credentials.',
} as const;

export const refusal = (message: string, code: string) =>
  new ApiError(400, { non_field_errors: [message], detail: message, code });
