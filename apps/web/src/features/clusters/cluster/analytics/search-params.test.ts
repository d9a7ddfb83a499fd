import { describe, expect, it } from 'vitest';

import { parseAnalyticsParams } from '@/features/clusters/cluster/analytics/search-params';

describe('the Analytics tab’s address', () => {
  it('reads the section and the computation opened', () => {
    expect(parseAnalyticsParams(new URLSearchParams('account=ws&view=spans&computation=42'))).toEqual({
      view: 'spans',
      computation: 42,
    });
  });

  it('falls back to the computations, none opened, on what it does not know', () => {
    for (const query of ['', 'view=exceptions', 'computation=abc', 'computation=0', 'computation=-3']) {
      expect(parseAnalyticsParams(new URLSearchParams(query))).toEqual({
        view: 'computations',
        computation: null,
      });
    }
  });
});
