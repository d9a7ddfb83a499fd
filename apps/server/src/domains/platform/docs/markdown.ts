import path from 'node:path';
import { Marked, type Tokens } from 'marked';
import { type DocPage, pageByFile, pageHref } from './manifest.js';

export interface Rendered {
  /** The first top-level heading's text. */
  title: string;
  html: string;
  /** Second-level headings (their text, tags stripped), for the page's contents in the navigation. */
  sections: Array<{ id: string; text: string }>;
  /** Every heading id, so a link's anchor can be checked. */
  ids: Set<string>;
}

export const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };
/** Text of rendered inline HTML: tags dropped, marked's entities read back. */
const textOf = (html: string) =>
  html.replace(/<[^>]*>/g, '').replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => ENTITIES[name] ?? '');

/**
 * A heading's anchor as GitHub makes it, so a link written for the repository (`clusters.md#tags`)
 * works on both: lower case, punctuation dropped, every space a hyphen.
 */
export const headingId = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');

/**
 * Where a link written in `fromFile` leads on /docs: a relative link to another served page
 * becomes its /docs address (anchor kept); anything else is left as written.
 */
export function docsHref(href: string, fromFile: string): string {
  if (/^([a-z][a-z0-9+.-]*:|\/|#)/i.test(href)) return href;
  const [target = '', anchor] = href.split('#', 2);
  const file = path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), target));
  const page = pageByFile.get(file);
  if (!page) return href;
  return anchor === undefined ? pageHref(page) : `${pageHref(page)}#${anchor}`;
}

/** Markdown to HTML: headings get anchors, links between pages lead to their /docs address. */
export function render(markdown: string, page: DocPage): Rendered {
  const sections: Rendered['sections'] = [];
  const ids = new Set<string>();
  const inLink = new WeakSet<object>();
  let title = '';
  const marked = new Marked({ gfm: true });
  marked.use({
    walkTokens(token) {
      if (token.type !== 'link') return;
      token.href = docsHref(token.href, page.file);
      // A page's path in code inside a link stays code: links do not nest.
      for (const inner of token.tokens ?? []) if (inner.type === 'codespan') inLink.add(inner);
    },
    renderer: {
      heading(this: { parser: { parseInline(t: Tokens.Generic[]): string } }, token: Tokens.Heading) {
        const inner = this.parser.parseInline(token.tokens);
        const text = textOf(inner);
        // A repeated heading gets -1, -2..., as on GitHub.
        const base = headingId(text);
        let id = base;
        for (let n = 1; ids.has(id); n++) id = `${base}-${n}`;
        ids.add(id);
        if (token.depth === 1 && !title) title = text;
        if (token.depth === 2) sections.push({ id, text });
        // The anchor wraps the heading's text, so links inside it would nest: keep their text only.
        const label = inner.replace(/<\/?a\b[^>]*>/g, '');
        return `<h${token.depth} id="${id}"><a class="anchor" href="#${id}">${label}</a></h${token.depth}>\n`;
      },
      codespan(token: Tokens.Codespan) {
        // The token's text is the source's, unescaped: `<SERVICE>` is text, not a tag.
        const named = inLink.has(token) ? undefined : pageByFile.get(token.text);
        const code = `<code>${escapeHtml(token.text)}</code>`;
        return named ? `<a href="${pageHref(named)}">${code}</a>` : code;
      },
    },
  });
  // Tables scroll sideways in a box of their own on a narrow screen, not the page, and so does
  // code: each box is a named region the keyboard can reach, to scroll it (WCAG 2.1.1).
  const html = marked
    .parse(markdown, { async: false })
    .replace(/<table>/g, '<div class="table" tabindex="0" role="region" aria-label="Table"><table>')
    .replace(/<\/table>/g, '</table></div>')
    .replace(/<pre>/g, '<pre tabindex="0" role="region" aria-label="Code">');
  return { title, html, sections, ids };
}
