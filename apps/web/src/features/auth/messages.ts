import { contactText } from '@/hooks/use-links';
import { isApiError } from '@/lib/api/errors';

// The sign-in messages, word for word as users know them.

export const LOGIN_MESSAGES = {
  /** Names this server's support address (CUMULUS_SUPPORT_EMAIL), or whoever runs the server. */
  locked: (supportEmail: string | null) =>
    `Account locked: too many login attempts. Contact ${contactText(supportEmail)} to unlock your account.`,
  notVerified:
    'We need to confirm your email address. Please check your email or request another confirmation email.',
  badCredentials: 'We were unable to log you in with those credentials.',
  ssoRequired: 'SSO is required for this user.',
  other: 'Something went wrong when we tried to log you in.',
} as const;

export type LoginFailure = {
  message: string;
  resendLink?: boolean;
  ssoLink?: boolean;
  /** The server's own reason, shown under the message (a refused provider answer says which check failed). */
  reason?: string;
};

export function loginFailure(error: unknown, supportEmail: string | null = null): LoginFailure {
  if (!isApiError(error)) return { message: LOGIN_MESSAGES.other };
  if (error.status === 403 || error.status === 429) return { message: LOGIN_MESSAGES.locked(supportEmail) };
  const nonField = error.nonFieldErrors;
  if (nonField.includes('E-mail is not verified.'))
    return { message: LOGIN_MESSAGES.notVerified, resendLink: true };
  if (nonField.includes('Unable to log in with provided credentials.'))
    return { message: LOGIN_MESSAGES.badCredentials };
  if (error.detail === 'SSO required') return { message: LOGIN_MESSAGES.ssoRequired, ssoLink: true };
  return { message: LOGIN_MESSAGES.other };
}

/** The OAuth and SSO callback failures (400 non-field errors, 401 SSO required). */
export function providerFailure(
  error: unknown,
  provider: string,
  supportEmail: string | null = null,
): LoginFailure {
  if (isApiError(error)) {
    if (error.status === 401 && error.detail === 'SSO required') {
      return { message: LOGIN_MESSAGES.ssoRequired, ssoLink: true };
    }
    const nonField = error.nonFieldErrors;
    if (nonField.includes('User is already registered with this e-mail address.')) {
      return {
        message: `You already have an account for the email associated with your ${provider} account, please use that login instead. Contact us if you need more help logging in.`,
        // The server keeps this sign-in waiting in this browser: signing in to the account links it.
        reason: `Sign in to that account once from this browser (within 30 minutes) and ${provider} sign-in will be linked to it.`,
      };
    }
    if (nonField.includes('User is already registered with this username.')) {
      return { message: 'This username is already in use by another account.' };
    }
    if (nonField.some((message) => message.includes('is not allowed to register'))) {
      return {
        message: `Free tier sign up is currently disabled. You do not currently have permission to enter the site. You can request access at ${contactText(supportEmail)}`,
      };
    }
  }
  const reason = isApiError(error) ? error.nonFieldErrors[0] : undefined;
  return { message: `There was an error logging in with ${provider}.`, ...(reason ? { reason } : {}) };
}

/** Verify-email-confirm failures: the server answers 'Not found.' for a bad key. */
export function verificationFailure(error: unknown): string {
  if (isApiError(error) && error.detail === 'Not found.') {
    return 'Invalid activation key provided. If you believe this is in error, please get in touch with us.';
  }
  return 'Something went wrong, please try again.';
}

/** Reset-confirm failures that replace the form: a bad uid or token, or anything unexpected. */
export function resetFailure(error: unknown): string {
  if (isApiError(error) && (error.fieldErrors('uid').length > 0 || error.fieldErrors('token').length > 0)) {
    return 'Invalid token provided. Please try again. If you believe this is in error, please get in touch with us.';
  }
  if (isApiError(error) && error.nonFieldErrors[0]) return error.nonFieldErrors[0];
  return 'Something went wrong, please try again.';
}
