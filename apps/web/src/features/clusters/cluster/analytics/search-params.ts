import { useSearchParams } from 'react-router';

/** The Analytics tab's sections (`?view=`): computations (the default) or spans. */
export const ANALYTICS_VIEWS = ['computations', 'spans'] as const;
export type AnalyticsView = (typeof ANALYTICS_VIEWS)[number];

export interface AnalyticsParams {
  view: AnalyticsView;
  /** The computation opened (`?computation=`, its id), if any. */
  computation: number | null;
}

export function parseAnalyticsParams(params: URLSearchParams): AnalyticsParams {
  const view = params.get('view');
  const computation = params.get('computation') ?? '';
  const id = /^\d{1,15}$/.test(computation) ? Number(computation) : 0;
  return {
    view: ANALYTICS_VIEWS.find((v) => v === view) ?? 'computations',
    computation: id > 0 ? id : null,
  };
}

/** The tab's state in the address, and a setter that keeps every other parameter (`account`). */
export function useAnalyticsParams() {
  const [params, setParams] = useSearchParams();
  const state = parseAnalyticsParams(params);
  const update = (change: Partial<AnalyticsParams>) =>
    setParams(
      (old) => {
        const next = new URLSearchParams(old);
        const merged = { ...parseAnalyticsParams(old), ...change };
        if (merged.view === 'computations') next.delete('view');
        else next.set('view', merged.view);
        if (merged.computation === null) next.delete('computation');
        else next.set('computation', String(merged.computation));
        return next;
      },
      { replace: true },
    );
  return [state, update] as const;
}
