import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { API_TOKEN_BANNER_TITLE, ApiTokenBanner } from '@/app/shell/api-token-banner';
import { stubApi } from '@/test/api-stub';
import { deploymentAnswer } from '@/test/deployment';
import { renderSignedIn } from '@/test/signed-in';

const page = <T,>(results: T[]) => ({ count: results.length, next: null, previous: null, results });
const types = page([{ name: 'api-token-message', expired: false }]);
const flags = (hasApiKey: boolean) => [
  { name: 'has-api-key', completed: hasApiKey },
  { name: 'user-source-dialog', completed: true },
];

function stub({ hasApiKey = false, seen = false, hostedService = true } = {}) {
  return stubApi({
    'GET /api/v2/deployment': deploymentAnswer({ hostedService }),
    'GET /api/v1/interaction_types/': types,
    'GET /api/v1/interactions/': page(
      seen ? [{ id: 1, interaction_type: 'api-token-message', created: '2026-01-01T00:00:00+00:00' }] : [],
    ),
    'GET /api/v2/interactions/flag': flags(hasApiKey),
    'POST /api/v1/interactions/': () => ({
      status: 201,
      body: { id: 2, interaction_type: 'api-token-message', created: '2026-01-01T00:00:00+00:00' },
    }),
  });
}

describe('the API token banner', () => {
  afterEach(() => vi.restoreAllMocks());

  it('goes at once when dismissed, and records api-token-message so it never returns', async () => {
    const api = stub();
    renderSignedIn(<ApiTokenBanner />);
    const banner = await screen.findByRole('region', { name: API_TOKEN_BANNER_TITLE });
    expect(screen.getByRole('link', { name: 'Create a token' })).toHaveAttribute(
      'href',
      '/profile?createTokenDialog=true',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(banner).not.toBeInTheDocument();
    await waitFor(() => expect(api.callsTo('POST', '/api/v1/interactions/')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/v1/interactions/')[0]!.body).toEqual({
      interaction_type: 'api-token-message',
    });
  });

  it('stays away once dismissed (on every later page and sign-in)', async () => {
    const api = stub({ seen: true });
    renderSignedIn(<ApiTokenBanner />);
    await waitFor(() => expect(api.callsTo('GET', '/api/v2/interactions/flag')).toHaveLength(1));
    await waitFor(() => expect(api.callsTo('GET', '/api/v1/interactions/')).toHaveLength(1));
    expect(screen.queryByText(API_TOKEN_BANNER_TITLE)).not.toBeInTheDocument();
  });

  it('is not shown to a user who has a token', async () => {
    const api = stub({ hasApiKey: true });
    renderSignedIn(<ApiTokenBanner />);
    await waitFor(() => expect(api.callsTo('GET', '/api/v2/interactions/flag')).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText(API_TOKEN_BANNER_TITLE)).not.toBeInTheDocument();
  });

  it('is not news on a self-hosted install: a brand-new user there never sees it', async () => {
    const api = stub({ hostedService: false });
    renderSignedIn(<ApiTokenBanner />);
    await waitFor(() => expect(api.callsTo('GET', '/api/v2/deployment')).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText(API_TOKEN_BANNER_TITLE)).not.toBeInTheDocument();
  });
});
