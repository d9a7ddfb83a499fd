import { type Deployment, useDeploymentQuery } from '@/data/deployment/deployment-query';

/**
 * Where the console links outside itself, as this server is configured (GET /api/v2/deployment:
 * CUMULUS_SUPPORT_EMAIL, CUMULUS_DOCS_URL...). A link that is not configured is null and is not
 * shown, and so is every link until the server has said: none leads nowhere.
 */
export type Links = {
  supportEmail: string | null;
  supportMailto: string | null;
  docsUrl: string | null;
  communityUrl: string | null;
  /** "Join our Slack" for a Slack invite, "Community" for anything else. */
  communityLabel: string;
  termsUrl: string | null;
  bookDemoUrl: string | null;
  permissionsGuideUrl: string | null;
};

/** This server's own documentation (CUMULUS_DOCS_URL unset). */
const OWN_DOCS = '/docs';
/**
 * The permissions guide in this server's own documentation (docs/teams.md). Written out whole: the
 * server's docs test finds every `/docs` link in the console's source and checks its page and anchor.
 */
export const PERMISSIONS_GUIDE = '/docs/teams#roles-and-permissions';

export function linksOf(deployment: Deployment | undefined): Links {
  const links = deployment?.links;
  const docsUrl = links?.docsUrl ?? null;
  const communityUrl = links?.communityUrl ?? null;
  return {
    supportEmail: links?.supportEmail ?? null,
    supportMailto: links?.supportEmail ? `mailto:${links.supportEmail}` : null,
    docsUrl,
    communityUrl,
    communityLabel: communityUrl && isSlack(communityUrl) ? 'Join our Slack' : 'Community',
    termsUrl: links?.termsUrl ?? null,
    bookDemoUrl: links?.bookDemoUrl ?? null,
    permissionsGuideUrl: docsUrl === OWN_DOCS ? PERMISSIONS_GUIDE : docsUrl,
  };
}

function isSlack(url: string): boolean {
  try {
    const host = new URL(url).hostname;
    return host === 'slack.com' || host.endsWith('.slack.com');
  } catch {
    return false;
  }
}

export function useLinks(): Links {
  const { data } = useDeploymentQuery();
  return linksOf(data);
}

/** Who to contact, in a sentence: the configured address, else whoever runs this server. */
export const contactText = (supportEmail: string | null) =>
  supportEmail ?? 'the administrator of this Cumulus server';
