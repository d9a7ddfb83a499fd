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
    // Sign-in with GitHub, Google or SSO needs an identity provider this server cannot be given
    // yet (modules/auth/providers.ts answers so): no button is offered for one.
    sign_in_providers: [],
  };
}
