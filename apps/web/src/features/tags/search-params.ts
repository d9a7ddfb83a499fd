import { param, reader, searchParams, text } from '@/lib/search-params';

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

const level = reader((raw) => {
  const value = Number(raw);
  return PREVIEW_LEVELS.some((l) => l.level === value) ? value : undefined;
});

const previewParams = searchParams({
  level: param('level', level, DEFAULT_LEVEL),
  title: param('title', text(200), ''),
  message: param('message', text(MESSAGE_MAX), ''),
  tags: param('tags', text(500, { trim: true }), ''),
});

export const parsePreviewSearch = (search: URLSearchParams): PreviewSearch => previewParams.parse(search);

/** `search` with `change` applied; defaults and empty values stay out of the URL. */
export const writePreviewSearch = (
  search: URLSearchParams,
  change: Partial<PreviewSearch>,
): URLSearchParams => previewParams.write(search, { ...parsePreviewSearch(search), ...change });
