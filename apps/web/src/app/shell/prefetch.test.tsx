import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { prefetchShell } from '@/app/shell/prefetch';
import { userKeys } from '@/data/user/keys';
import { EARLY_CALLS, signedInStartScript } from '@/lib/api/early-calls';
import { session } from '@/lib/api/session';
import { STORAGE_KEYS } from '@/lib/storage';
import { stubApi } from '@/test/api-stub';

const page = { count: 0, next: null, previous: null, results: [] };
const shellApi = () =>
  stubApi({
    'GET /api/v2/user/me': { id: 7, username: 'ada', is_staff: false },
    'GET /api/v2/user/me/memberships': [],
    'GET /api/v2/users/user/organization/memberships': [],
    'GET /api/v1/interaction_types/': page,
    'GET /api/v1/interactions/': page,
    'GET /api/v2/users/user/valid-scopes': [],
  });

/** Runs index.html's first script (bundling/signed-in-start.ts) as the browser would. */
const runStartScript = () =>
  new Function(signedInStartScript({ tokenKey: STORAGE_KEYS.token, modules: ['/assets/landing-x.js'] }))();

const sentAuthorization = (spy: ReturnType<typeof stubApi>['spy']) =>
  spy.mock.calls.map(([input, init]) => new Request(input, init).headers.get('authorization'));

describe('a signed-in first load', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    session.clear();
    delete (window as { __cumulusEarlyCalls?: unknown }).__cumulusEarlyCalls;
    for (const link of document.head.querySelectorAll('link[rel=modulepreload]')) link.remove();
  });

  it.each([
    ['a session key', 'f3a9c2', 'Token f3a9c2'],
    ['an API token', 'tok-1234', 'ApiToken tok-1234'],
  ])(
    'asks once for what the shell reads: index.html asks, the prefetch takes its answers (%s)',
    async (_kind, token, header) => {
      const api = shellApi();
      session.signIn(token);
      runStartScript();
      expect(api.calls.map((call) => `${call.path}${call.query.size ? `?${call.query}` : ''}`)).toEqual([
        ...EARLY_CALLS,
      ]);
      expect(sentAuthorization(api.spy)).toEqual(EARLY_CALLS.map(() => header));
      expect(document.head.querySelector('link[rel=modulepreload]')?.getAttribute('href')).toBe(
        '/assets/landing-x.js',
      );

      const queryClient = new QueryClient();
      await prefetchShell(queryClient);
      expect(api.calls).toHaveLength(EARLY_CALLS.length);
      expect(queryClient.getQueryData(userKeys.me())).toEqual({ id: 7, username: 'ada', isStaff: false });

      // Taken once: a later read asks the server.
      await queryClient.refetchQueries({ queryKey: userKeys.me() });
      expect(api.callsTo('GET', '/api/v2/user/me')).toHaveLength(2);
    },
  );

  it('asks again when the session changed since index.html asked', async () => {
    const api = shellApi();
    session.signIn('f3a9c2');
    runStartScript();
    session.signIn('b7e1d0');
    await prefetchShell(new QueryClient());
    expect(api.calls).toHaveLength(2 * EARLY_CALLS.length);
    expect(sentAuthorization(api.spy).slice(EARLY_CALLS.length)).toEqual(
      EARLY_CALLS.map(() => 'Token b7e1d0'),
    );
  });

  it('starts nothing without a token', async () => {
    const api = shellApi();
    runStartScript();
    await prefetchShell(new QueryClient());
    expect(api.calls).toEqual([]);
    expect(document.head.querySelector('link[rel=modulepreload]')).toBeNull();
  });
});
