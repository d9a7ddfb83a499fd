import * as React from 'react';

export type Breadcrumb = {
  label: string;
  /** A link; the last breadcrumb never shows one. */
  to?: string;
  onClick?: () => void;
};

export type PageMeta = { title: string; breadcrumbs?: Breadcrumb[] };

const PageMetaValue = React.createContext<PageMeta | null>(null);
const SetPageMeta = React.createContext<((meta: PageMeta | null) => void) | null>(null);

/** Holds the current page's title and breadcrumbs for the top bar (and the browser tab). */
export function PageMetaProvider({ children }: { children: React.ReactNode }) {
  const [meta, setMeta] = React.useState<PageMeta | null>(null);
  return (
    <SetPageMeta.Provider value={setMeta}>
      <PageMetaValue.Provider value={meta}>{children}</PageMetaValue.Provider>
    </SetPageMeta.Provider>
  );
}

/**
 * Sets the page's title and breadcrumbs while it is shown. Call it at the top of every page:
 * `usePageMeta({ title: 'Team', breadcrumbs: [{ label: 'Team' }] })`. Without breadcrumbs the
 * title is the single breadcrumb.
 */
export function usePageMeta(meta: PageMeta): void {
  const setMeta = React.useContext(SetPageMeta);
  const latest = React.useRef(meta);
  latest.current = meta;
  // Re-run only when what is shown changes, not on every render's new object.
  const key = JSON.stringify([meta.title, meta.breadcrumbs?.map((crumb) => [crumb.label, crumb.to])]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for the meta's content.
  React.useEffect(() => {
    setMeta?.(latest.current);
  }, [key, setMeta]);
  React.useEffect(() => () => setMeta?.(null), [setMeta]);
}

export function useCurrentPageMeta(): PageMeta | null {
  return React.useContext(PageMetaValue);
}
