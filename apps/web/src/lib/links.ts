// Places outside the console that it links to. One list, so a deployment changes them here.

export const DOCS_URL = 'https://docs.cumulus.dev';
export const SLACK_URL = 'https://join.slack.com/t/cumulus-community/shared_invite';
export const TERMS_URL = 'https://cumulus.dev/terms';
export const BOOK_DEMO_URL = 'https://cumulus.dev/book-a-demo';
export const PERMISSIONS_GUIDE_URL = `${DOCS_URL}/user-guide/teams/permissions`;
export const ISSUES_URL = 'https://github.com/cumulus-dev/cumulus/issues';

/** The support address of this deployment: support@<the console's host> (spec section 8). */
export function supportEmail(hostname: string = window.location.hostname): string {
  return `support@${hostname}`;
}

export const supportMailto = () => `mailto:${supportEmail()}`;
