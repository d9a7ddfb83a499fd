// Every route path of the console, in one place. The spec names the screens but not every path;
// these are the console's choices. Patterns with `:params` are built with React Router's
// generatePath: `generatePath(paths.resetPasswordConfirm, { uid, token })`.
export const paths = {
  root: '/',

  // Public.
  login: '/login',
  signup: '/signup',
  verifyEmailConfirm: '/verify-email-confirm/:key',
  verifyEmailSent: '/verify-email-sent',
  verifyEmailResend: '/verify-email-resend',
  retrieveUsername: '/retrieve-username',
  forgotPassword: '/reset-password',
  resetPasswordConfirm: '/reset-password/key/:uid/:token',
  oauthCallback: '/auth/:provider/callback',
  ssoCallback: '/auth/sso/callback',
  workos: '/workos',
  /** The product plan (pro) page; route name go-cumulus-pro. */
  proPlan: '/go-cumulus-pro',
  billingRedirect: '/billing-redirect',
  componentSandbox: '/component-sandbox',
  tagAlertContentPreview: '/tag-alert-content-preview',

  // Signed in.
  activateToken: '/activate-token',
  profile: '/profile',
  getStarted: '/get-started',
  clusters: '/clusters',
  cluster: '/clusters/:clusterId',
  clusterInstances: '/clusters/:clusterId/instances',
  clusterLogs: '/clusters/:clusterId/logs',
  clusterEvents: '/clusters/:clusterId/events',
  clusterMetrics: '/clusters/:clusterId/metrics',
  clusterAnalytics: '/clusters/:clusterId/analytics',
  clusterInfrastructure: '/clusters/:clusterId/infrastructure',
  notebooks: '/notebooks',
  /** Opens a notebook cluster's Jupyter (the Notebooks page's Open, in a new tab). */
  notebookOpen: '/notebooks/:clusterId/open',
  software: '/software',
  softwareAlias: '/software/alias/:aliasId/account/:accountSlug',
  softwareBuild: '/software/alias/:aliasId/account/:accountSlug/build/:buildId',
  softwareAliasLegacy: '/software/alias/:aliasId',
  softwareBuildLegacy: '/software/alias/:aliasId/build/:buildId',
  setup: '/settings/setup',
  setupCredentials: '/settings/setup/credentials',
  billing: '/billing',
  usage: '/usage',
  team: '/team',
  teamAddMember: '/team/:organizationId/add-member',
  teamCreateWorkspace: '/team/:organizationId/create-workspace',
  teamCreateOrganization: '/team/create-organization',
  teamEditMember: '/team/:organizationId/edit-member/:memberId',
  teamEditInvite: '/team/:organizationId/edit-invite/:inviteId',
  batchJobs: '/batch/jobs',
  batchJob: '/batch/jobs/:jobId',
  staff: '/staff',
  account: '/account',
} as const;

/** Where to go after signing in (original path plus query). */
export const RETURN_TO_PARAM = 'return-to';
/** Same meaning, used by external clients that start a sign-in. */
export const REDIRECT_URI_PARAM = 'redirect_uri';
/** The server's single-sign-on entry (the /workos route sends the browser there). */
export const SSO_LOGIN_URL = '/api/v2/workos/login';
