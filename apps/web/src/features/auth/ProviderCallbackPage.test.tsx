import { waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { OAuthCallbackPage, SsoCallbackPage } from '@/features/auth/ProviderCallbackPage';
import { session } from '@/lib/api/session';
import { paths } from '@/lib/paths';
import { stubApi } from '@/test/api-stub';
import { renderPage } from '@/test/render';

describe('Provider callbacks', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    session.clear();
  });

  it('exchanges an OAuth code with its provider, starts the session and follows return-to', async () => {
    const api = stubApi({ 'POST /users/github/get_token': { key: 'oauth-key', existing: true } });
    const { router } = renderPage(<OAuthCallbackPage />, {
      url: '/auth/github/callback?code=abc&state=s1&return-to=%2Fteam',
      path: paths.oauthCallback,
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/team'));
    expect(api.callsTo('POST', '/users/github/get_token')[0]?.body).toEqual({ code: 'abc', state: 's1' });
    expect(session.token()).toBe('oauth-key');
  });

  it('exchanges an SSO code and starts the session', async () => {
    const api = stubApi({ 'GET /api/v2/workos/success': { key: 'sso-key', existing: false } });
    const { router } = renderPage(<SsoCallbackPage />, {
      url: '/auth/sso/callback?code=xyz&state=s2&iss=https%3A%2F%2Fidp.example',
      path: paths.ssoCallback,
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    const query = api.callsTo('GET', '/api/v2/workos/success')[0]?.query;
    expect(query?.get('code')).toBe('xyz');
    expect(query?.get('state')).toBe('s2');
    expect(query?.get('iss')).toBe('https://idp.example');
    expect(session.token()).toBe('sso-key');
  });
});
