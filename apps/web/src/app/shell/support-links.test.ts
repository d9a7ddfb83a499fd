import { describe, expect, it } from 'vitest';

import { supportLinks } from '@/app/shell/nav';
import { linksOf } from '@/hooks/use-links';
import { camelize } from '@/lib/api/camelize';
import { deploymentAnswer } from '@/test/deployment';

const links = (answer: Parameters<typeof deploymentAnswer>[0]) =>
  linksOf(camelize(deploymentAnswer(answer)) as Parameters<typeof linksOf>[0]);

describe('the links a server configures', () => {
  it('shows none until the server has said', () => {
    expect(supportLinks(linksOf(undefined))).toEqual([]);
    expect(linksOf(undefined).permissionsGuideUrl).toBeNull();
  });

  it('by default: only Docs, this server’s own, whose Teams page holds the permissions guide', () => {
    const found = links({});
    expect(supportLinks(found).map((l) => [l.title, l.href])).toEqual([['Docs', '/docs']]);
    expect(found.permissionsGuideUrl).toBe('/docs/teams#roles-and-permissions');
    expect(found.supportMailto).toBeNull();
  });

  it('with everything configured: docs elsewhere, a Slack invite and a support address', () => {
    const found = links({
      links: {
        docs_url: 'https://docs.example.org',
        community_url: 'https://example.slack.com/join/x',
        support_email: 'help@example.org',
      },
    });
    expect(supportLinks(found).map((l) => [l.title, l.href, l.newTab])).toEqual([
      ['Docs', 'https://docs.example.org', true],
      ['Join our Slack', 'https://example.slack.com/join/x', true],
      ['Contact an Engineer', 'mailto:help@example.org', false],
    ]);
    expect(found.permissionsGuideUrl).toBe('https://docs.example.org');
    expect(links({ links: { community_url: 'https://forum.example.org' } }).communityLabel).toBe('Community');
  });
});
