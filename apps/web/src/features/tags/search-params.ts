// The preview page's URL state, so a preview can be shared as a link: `level` (40 error, 30
// warning, 20 info; default 30), `title` and `message` (markdown) of the alert being written, and
// `tags` (`key` or `key:value`, comma separated) filtering the signed-in user's cluster alerts.

export const PREVIEW_LEVELS = [
  { level: 40, label: 'Error' },
  { level: 30, label: 'Warning' },
  { level: 20, label: 'Info' },
] as const;

export type PreviewSearch = { level: number; title: string; message: string; tags: string };

const DEFAULT_LEVEL = 30;
export const MESSAGE_MAX = 4000;

export function parsePreviewSearch(search: URLSearchParams): PreviewSearch {
  const level = Number(search.get('level'));
  return {
    level: PREVIEW_LEVELS.some((l) => l.level === level) ? level : DEFAULT_LEVEL,
    title: (search.get('title') ?? '').slice(0, 200),
    message: (search.get('message') ?? '').slice(0, MESSAGE_MAX),
    tags: (search.get('tags') ?? '').trim().slice(0, 500),
  };
}

/** `search` with `change` applied; defaults and empty values stay out of the URL. */
export function writePreviewSearch(search: URLSearchParams, change: Partial<PreviewSearch>): URLSearchParams {
  const next = { ...parsePreviewSearch(search), ...change };
  const out = new URLSearchParams(search);
  const put = (name: string, value: string, fallback = '') => {
    if (value === fallback) out.delete(name);
    else out.set(name, value);
  };
  put('level', String(next.level), String(DEFAULT_LEVEL));
  put('title', next.title);
  put('message', next.message);
  put('tags', next.tags);
  return out;
}
