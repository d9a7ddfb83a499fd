// Public route paths and the query parameters that travel between them. The spec names the
// screens but not every path; these are the console's choices, kept in one place.
export const paths = {
  root: '/',
  login: '/login',
  signup: '/signup',
  componentSandbox: '/component-sandbox',
} as const;

/** Where to go after signing in (original path plus query), spec/console.md section 2. */
export const RETURN_TO_PARAM = 'return-to';
/** Same meaning, used by external clients that start a sign-in. */
export const REDIRECT_URI_PARAM = 'redirect_uri';
