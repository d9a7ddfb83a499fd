import { describe, expect, it } from 'vitest';

import { earliestTrialExpiration, trialDaysLeft } from '@/app/shell/banners';
import { isActive, NAV_ENTRIES } from '@/app/shell/nav';
import type { CurrentUser } from '@/data/user/current-user-query';
import type { OrganizationMembership } from '@/data/user/organization-memberships-query';

describe('sidebar', () => {
  it('marks an entry active when its path equals or prefixes the current path', () => {
    expect(isActive('/clusters', '/clusters')).toBe(true);
    expect(isActive('/clusters', '/clusters/12/infrastructure')).toBe(true);
    expect(isActive('/clusters', '/clustersx')).toBe(false);
    expect(isActive('/team', '/clusters')).toBe(false);
  });

  it('shows Notebooks only with shouldSeeNotebookPage', () => {
    const titles = (shouldSeeNotebookPage: boolean) =>
      NAV_ENTRIES.filter((entry) => entry.visible?.({ shouldSeeNotebookPage } as CurrentUser) ?? true).map(
        (entry) => entry.title,
      );
    expect(titles(false)).toEqual([
      'Get Started',
      'Dashboard',
      'Software',
      'Cloud',
      'Billing',
      'Usage',
      'Team',
    ]);
    expect(titles(true)).toContain('Notebooks');
  });
});

describe('trial banner', () => {
  const membership = (displayedProTrialExpiration: string | null) =>
    ({ displayedProTrialExpiration }) as OrganizationMembership;

  it('counts the days to the earliest upcoming trial expiry', () => {
    const now = new Date('2030-01-10T12:00:00Z');
    const earliest = earliestTrialExpiration(
      [
        membership(null),
        membership('2030-01-01T00:00:00+00:00'),
        membership('2030-01-20T12:00:00+00:00'),
        membership('2030-01-15T12:00:00+00:00'),
      ],
      now,
    );
    expect(earliest?.toISOString()).toBe('2030-01-15T12:00:00.000Z');
    expect(trialDaysLeft(earliest!, now)).toBe(5);
    expect(earliestTrialExpiration([membership(null)], now)).toBeNull();
  });
});
