import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';

import { getStartedRoutes } from '@/features/get-started/routes';

describe('Get Started routes', () => {
  it('land every get-started/* path on Get Started', () => {
    for (const path of ['/get-started', '/get-started/', '/get-started/install', '/get-started/a/b?x=1'])
      expect(matchRoutes(getStartedRoutes, path)?.[0]?.route).toBe(getStartedRoutes[0]);
    expect(matchRoutes(getStartedRoutes, '/get-startedx')).toBeNull();
  });
});
