import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { TagAlertContentPreviewPage } from '@/features/tags/TagAlertContentPreviewPage';
import { session } from '@/lib/api/session';
import { stubApi } from '@/test/api-stub';
import { renderPage } from '@/test/render';

const open = (query = '') =>
  renderPage(<TagAlertContentPreviewPage />, {
    url: `/tag-alert-content-preview${query}`,
    path: '/tag-alert-content-preview',
  });

const alertOf = (message: string) => ({
  level: 40,
  title: 'Cluster nightly failed',
  message,
  first_occurred: '2026-11-20T10:00:00+00:00',
  cluster_id: 7,
  cluster_name: 'nightly',
  account: 'etl',
  tags: { team: 'etl', note_key: 'x' },
});

describe('TagAlertContentPreviewPage', () => {
  afterEach(() => {
    session.clear();
    vi.restoreAllMocks();
  });

  it('previews the alert in the address, links by the rule, and asks a visitor to sign in for their own', () => {
    const api = stubApi({});
    const message = 'Out of **memory**: see [logs](/clusters/7) or [this](javascript:alert(1)).';
    open(`?level=40&title=${encodeURIComponent('Memory')}&message=${encodeURIComponent(message)}`);
    const preview = screen.getByRole('alert');
    expect(within(preview).getByText('Memory')).toBeInTheDocument();
    expect(within(preview).getByText('memory').tagName).toBe('STRONG');
    expect(within(preview).getByRole('link', { name: 'logs' })).toHaveAttribute('href', '/clusters/7');
    expect(within(preview).getByRole('link', { name: 'this' })).toHaveAttribute('href', '#');
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute(
      'href',
      expect.stringMatching(/^\/login\?return-to=/),
    );
    expect(api.calls).toEqual([]);
  });

  it('keeps what is written in the address, so a preview can be shared', async () => {
    stubApi({});
    const { router } = open();
    // Until something is written, an example shows.
    expect(
      within(screen.getByRole('alert')).getByText('Workers are running out of memory'),
    ).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'Disk full' } });
    fireEvent.change(screen.getByLabelText('Message (markdown)'), {
      target: { value: 'Free [space](https://x.org)' },
    });
    await waitFor(() =>
      expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
        title: 'Disk full',
        message: 'Free [space](https://x.org)',
      }),
    );
    expect(within(screen.getByRole('alert')).getByRole('link', { name: 'space' })).toHaveAttribute(
      'target',
      '_blank',
    );
  });

  it('lists a signed-in user’s cluster alerts for the tags asked, with their cluster and tags', async () => {
    session.signIn('session-key');
    const api = stubApi({
      'GET /api/v2/tags/alert-contents': (_request: Request, url: URL) => ({
        body:
          url.searchParams.get('tags') === 'team:etl'
            ? {
                items: [alertOf('The scheduler exited.\n\n[Open nightly](/clusters/7?account=etl)')],
                count: 1,
              }
            : { items: [], count: 0 },
      }),
    });
    open();
    expect(await screen.findByText('No alerts on your clusters')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Tags'), { target: { value: 'team:etl' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show alerts' }));
    const list = await screen.findByRole('region', { name: 'Alerts from tags' });
    expect(within(list).getByText('Cluster nightly failed')).toBeInTheDocument();
    expect(within(list).getByRole('link', { name: 'Open nightly' })).toHaveAttribute(
      'href',
      '/clusters/7?account=etl',
    );
    expect(within(list).getByRole('link', { name: 'etl / nightly' })).toBeInTheDocument();
    // Tag keys are the user's own words, not field names: shown as written.
    expect(within(list).getByText('note_key: x')).toBeInTheDocument();
    expect(api.callsTo('GET', '/api/v2/tags/alert-contents').at(-1)?.query.get('tags')).toBe('team:etl');
  });

  it('completes the tag being typed from the keys and values of the user’s clusters', async () => {
    session.signIn('session-key');
    const api = stubApi({
      'GET /api/v2/tags/alert-contents': { items: [], count: 0 },
      'GET /api/v2/tags/labels': (_request: Request, url: URL) => ({
        body: {
          items: [
            { key: 'team', system: false, cluster_count: 2 },
            { key: 'tier', system: false, cluster_count: 1 },
          ].filter((label) => label.key.startsWith(url.searchParams.get('starts_with') ?? '')),
          count: 2,
        },
      }),
      'GET /api/v2/tags/values': (_request: Request, url: URL) => ({
        body: {
          items:
            url.searchParams.get('key') === 'team'
              ? [
                  { key: 'team', value: 'etl', system: false, cluster_count: 1 },
                  { key: 'team', value: 'ml', system: false, cluster_count: 1 },
                ]
              : [],
          count: 2,
        },
      }),
    });
    const { container } = open();
    const tags = screen.getByLabelText('Tags');
    const options = () =>
      Array.from(container.querySelectorAll(`datalist#${tags.getAttribute('list')} option`)).map(
        (option) => (option as HTMLOptionElement).value,
      );
    fireEvent.change(tags, { target: { value: 'env:prod, te' } });
    await waitFor(() => expect(options()).toEqual(['env:prod, team']));
    expect(api.callsTo('GET', '/api/v2/tags/labels').at(-1)?.query.get('starts_with')).toBe('te');
    fireEvent.change(tags, { target: { value: 'env:prod, team:' } });
    await waitFor(() => expect(options()).toEqual(['env:prod, team:etl', 'env:prod, team:ml']));
  });
});
