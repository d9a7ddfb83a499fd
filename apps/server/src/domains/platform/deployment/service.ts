import type { Config } from '../../../config.js';
import { VERSION } from '../../../version.js';
import type { Deployment } from './schemas.js';

/** Where mail goes, said so that the person waiting for one knows where to look. */
export function mailDelivery(config: Config): Deployment['mail'] {
  return config.smtpUrl
    ? { delivery: 'smtp', detail: 'Mail is sent by this server’s mail server.' }
    : {
        delivery: 'server-log',
        detail:
          'This server has no mail server configured, so it sends no email: each one is printed in the ' +
          'server’s log (where Cumulus was started), and staff can read it on the Staff page.',
      };
}

/** What a console needs to know of this deployment before anyone signs in; nothing secret. */
export function describeDeployment(config: Config): Deployment {
  return {
    public_url: config.publicUrl,
    version: VERSION,
    mail: mailDelivery(config),
    links: {
      support_email: config.links.supportEmail,
      docs_url: config.links.docsUrl,
      community_url: config.links.communityUrl,
      terms_url: config.links.termsUrl,
      book_demo_url: config.links.bookDemoUrl,
    },
    hosted_service: config.hostedService,
    sign_in_providers: signInProviders(config),
  };
}

/**
 * The identity providers configured from the environment (config.ts, CUMULUS_OIDC_*, _GOOGLE_*,
 * _GITHUB_*), each with the server path that starts its sign-in: the login page shows these only.
 */
function signInProviders(config: Config): Deployment['sign_in_providers'] {
  const { google, github, sso } = config.signIn;
  return [
    ...(google
      ? [{ id: 'google' as const, name: google.name, authorize_url: '/api/v2/auth/google/login' }]
      : []),
    ...(github
      ? [{ id: 'github' as const, name: github.name, authorize_url: '/api/v2/auth/github/login' }]
      : []),
    ...(sso ? [{ id: 'sso' as const, name: sso.name, authorize_url: '/api/v2/workos/login' }] : []),
  ];
}
