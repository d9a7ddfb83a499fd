import { useSearchParams } from 'react-router';

import { oneOf, param, searchParams, wholeNumber } from '@/lib/search-params';

/** The Analytics tab's sections (`?view=`): computations (the default) or spans. */
export const ANALYTICS_VIEWS = ['computations', 'spans'] as const;
export type AnalyticsView = (typeof ANALYTICS_VIEWS)[number];

export interface AnalyticsParams {
  view: AnalyticsView;
  /** The computation opened (`?computation=`, its id), if any. */
  computation: number | null;
}

const analyticsParams = searchParams({
  view: param<AnalyticsView>('view', oneOf(ANALYTICS_VIEWS), 'computations'),
  computation: param<number | null>('computation', wholeNumber({ min: 1, digits: 15 }), null),
});

export const parseAnalyticsParams = (params: URLSearchParams): AnalyticsParams =>
  analyticsParams.parse(params);

/** The tab's state in the address, and a setter that keeps every other parameter (`account`). */
export function useAnalyticsParams() {
  const [params, setParams] = useSearchParams();
  const state = parseAnalyticsParams(params);
  const update = (change: Partial<AnalyticsParams>) =>
    setParams((old) => analyticsParams.write(old, { ...parseAnalyticsParams(old), ...change }), {
      replace: true,
    });
  return [state, update] as const;
}
