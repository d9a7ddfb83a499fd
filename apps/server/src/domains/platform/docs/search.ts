import { type DocPage, pageHref } from './manifest.js';
import { escapeHtml, type Rendered } from './markdown.js';

/** The search page's address; its box is on every page (layout.ts). */
export const SEARCH_PATH = '/docs/search';
/** The most results one search lists, best first. */
export const MAX_RESULTS = 30;
/** Characters of a section's text shown around its first match. */
const SNIPPET = 180;

/** One stretch of a page: its top (before the first heading) or a heading and the text under it. */
interface Section {
  page: DocPage;
  pageTitle: string;
  /** The heading's anchor; null for a page's opening (its first heading is the page title). */
  id: string | null;
  heading: string;
  text: string;
}

export interface SearchResult {
  href: string;
  pageTitle: string;
  /** The section's heading, or null when the match is the page as a whole (its title, its opening). */
  heading: string | null;
  /** Escaped HTML: the text around the first match, the query's words marked. */
  snippet: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };
const textOf = (html: string) =>
  html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => ENTITIES[name] ?? '')
    .replace(/\s+/g, ' ')
    .trim();

/** A rendered page cut at its headings (levels 1 to 4), each heading with the text under it. */
export function sectionsOf(page: DocPage, rendered: Rendered): Section[] {
  const pageTitle = rendered.title || page.title;
  const parts = rendered.html.split(/(?=<h[1-4] id=")/);
  return parts.map((part) => {
    const heading = /^<h([1-4]) id="([^"]+)">([\s\S]*?)<\/h\1>/.exec(part);
    if (!heading) return { page, pageTitle, id: null, heading: pageTitle, text: textOf(part) };
    const [whole, level, id = '', inner = ''] = heading;
    return {
      page,
      pageTitle,
      // The page's own title leads to the page, not to an anchor at its top.
      id: level === '1' ? null : id,
      heading: textOf(inner),
      text: textOf(part.slice(whole.length)),
    };
  });
}

/** The query's words, lower case, each once (at most 8: a pasted paragraph is not a query). */
export const wordsOf = (query: string) =>
  [...new Set(query.toLowerCase().split(/\s+/).filter(Boolean))].slice(0, 8);

/**
 * The sections holding every word of the query (in the page's title, the heading or the text),
 * best first: words in the heading, then in the page's title, then how often they occur.
 */
export function searchSections(sections: readonly Section[], query: string): SearchResult[] {
  const words = wordsOf(query);
  if (words.length === 0) return [];
  const scored: Array<{ section: Section; score: number; order: number }> = [];
  sections.forEach((section, order) => {
    const heading = section.heading.toLowerCase();
    const title = section.pageTitle.toLowerCase();
    const text = section.text.toLowerCase();
    let score = 0;
    for (const word of words) {
      const inHeading = heading.includes(word);
      const inTitle = title.includes(word);
      const inText = occurrences(text, word);
      if (!inHeading && !inTitle && inText === 0) return;
      score += (inHeading ? 100 : 0) + (inTitle ? 20 : 0) + Math.min(inText, 10);
    }
    scored.push({ section, score, order });
  });
  scored.sort((a, b) => b.score - a.score || a.order - b.order);
  return scored.slice(0, MAX_RESULTS).map(({ section }) => ({
    href: section.id ? `${pageHref(section.page)}#${section.id}` : pageHref(section.page),
    pageTitle: section.pageTitle,
    heading: section.id ? section.heading : null,
    snippet: snippet(section.text, words),
  }));
}

function occurrences(text: string, word: string): number {
  let count = 0;
  for (let at = text.indexOf(word); at !== -1; at = text.indexOf(word, at + word.length)) count++;
  return count;
}

/** About SNIPPET characters of `text` from a little before the first word found, words marked. */
function snippet(text: string, words: string[]): string {
  const lower = text.toLowerCase();
  const first = Math.min(...words.map((w) => lower.indexOf(w)).filter((at) => at !== -1));
  const start = Number.isFinite(first) ? Math.max(0, first - 40) : 0;
  const cut = text.slice(start, start + SNIPPET);
  const shown = `${start > 0 ? '…' : ''}${cut}${start + SNIPPET < text.length ? '…' : ''}`;
  const pattern = new RegExp(`(${words.map(escapeRegExp).join('|')})`, 'gi');
  // Escape each piece, then mark the matches: the text is never markup.
  return shown
    .split(pattern)
    .map((piece, i) => (i % 2 === 1 ? `<mark>${escapeHtml(piece)}</mark>` : escapeHtml(piece)))
    .join('');
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
