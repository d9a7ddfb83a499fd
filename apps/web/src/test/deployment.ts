/** GET /api/v2/deployment as a server answers it (wire shape), configured as the test needs. */
export function deploymentAnswer({
  mail = 'smtp',
  links = {},
  providers = [],
  hostedService = false,
}: {
  mail?: 'smtp' | 'server-log';
  links?: Partial<{
    support_email: string | null;
    docs_url: string;
    community_url: string | null;
    terms_url: string | null;
    book_demo_url: string | null;
  }>;
  providers?: Array<{ id: 'google' | 'github' | 'sso'; name: string; authorize_url: string }>;
  hostedService?: boolean;
} = {}) {
  return {
    public_url: 'http://localhost:3000',
    version: '0.1.0',
    mail: {
      delivery: mail,
      detail: mail === 'smtp' ? 'Mail is sent.' : 'This server has no mail server configured.',
    },
    links: {
      support_email: null,
      docs_url: '/docs',
      community_url: null,
      terms_url: null,
      book_demo_url: null,
      ...links,
    },
    hosted_service: hostedService,
    sign_in_providers: providers,
  };
}
