/**
 * The link rule for rendered markdown: a link is kept when it starts
 * with # or /, has no scheme, or uses http, https, mailto or tel; any other is replaced with a
 * harmless no-op link. A scheme that only appears after ? or # (`page?next=https:...`) is no scheme.
 */
export const NO_OP_HREF = '#';

const ALLOWED_SCHEMES = new Set(['http', 'https', 'mailto', 'tel']);

/**
 * Browsers drop ASCII whitespace and control characters around a URL and tabs and newlines inside
 * it before they read its scheme (`java\tscript:` is `javascript:`); so does the rule.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const IGNORED_BY_BROWSERS = /[\u0000-\u0020\u007f]/g;

export function safeHref(href: string): string {
  const read = href.replace(IGNORED_BY_BROWSERS, '');
  if (read.startsWith('#') || read.startsWith('/')) return href;
  // A scheme is letters, digits, + - . before the first colon; ? or # (or /) before it ends that.
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(read)?.[1];
  if (scheme === undefined) return href;
  return ALLOWED_SCHEMES.has(scheme.toLowerCase()) ? href : NO_OP_HREF;
}
