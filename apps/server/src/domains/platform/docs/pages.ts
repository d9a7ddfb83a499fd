import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { Marked, type Tokens } from 'marked';

/** The documentation this server serves at /docs: files of the repository it was built from. */
export const DOC_PAGES = [
  { slug: '', file: 'README.md', title: 'Cumulus' },
  { slug: 'agent-protocol', file: 'python/cumulus/agent/PROTOCOL.md', title: 'Instance agent protocol' },
  { slug: 'console', file: 'apps/web/README.md', title: 'Console development' },
] as const;

export type DocPage = (typeof DOC_PAGES)[number];

const pageHref = (page: DocPage) => (page.slug ? `/docs/${page.slug}` : '/docs');
const byFile = new Map<string, DocPage>(DOC_PAGES.map((p) => [p.file, p]));

export const slugify = (text: string) =>
  text
    .toLowerCase()
    .replace(/<[^>]*>|&\w+;/g, '')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .replace(/\s+/g, '-');

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

interface Rendered {
  title: string;
  html: string;
  /** The page's sections (second-level headings; text as HTML, tags stripped), for the contents. */
  sections: Array<{ id: string; text: string }>;
}

/** Markdown to HTML: headings get ids (and make the contents), a mention of another page links to it. */
function render(markdown: string): Rendered {
  const sections: Rendered['sections'] = [];
  let title = '';
  const marked = new Marked({ gfm: true });
  marked.use({
    renderer: {
      heading(this: { parser: { parseInline(t: Tokens.Generic[]): string } }, token: Tokens.Heading) {
        const inner = this.parser.parseInline(token.tokens);
        const id = slugify(token.text);
        if (token.depth === 1 && !title) title = token.text;
        if (token.depth === 2) sections.push({ id, text: inner.replace(/<[^>]*>/g, '') });
        return `<h${token.depth} id="${id}"><a class="anchor" href="#${id}">${inner}</a></h${token.depth}>\n`;
      },
      codespan(token: Tokens.Codespan) {
        // The token's text is the source's, unescaped: `<SERVICE>` is text, not a tag.
        const page = byFile.get(token.text);
        const code = `<code>${escapeHtml(token.text)}</code>`;
        return page ? `<a href="${pageHref(page)}">${code}</a>` : code;
      },
    },
  });
  // Tables scroll sideways in a box of their own on a narrow screen, not the page.
  const html = marked
    .parse(markdown, { async: false })
    .replace(/<table>/g, '<div class="table"><table>')
    .replace(/<\/table>/g, '</table></div>');
  return { title, html, sections };
}

/** Renders each page once per version of its file (a checkout that changes shows the change). */
export function docRenderer(root: string) {
  const cache = new Map<string, { mtimeMs: number; rendered: Rendered }>();
  return (page: DocPage): string | null => {
    const file = path.join(root, page.file);
    let mtimeMs: number;
    try {
      mtimeMs = statSync(file).mtimeMs;
    } catch {
      return null;
    }
    let entry = cache.get(file);
    if (!entry || entry.mtimeMs !== mtimeMs) {
      entry = { mtimeMs, rendered: render(readFileSync(file, 'utf8')) };
      cache.set(file, entry);
    }
    return layout(page, entry.rendered);
  };
}

function layout(page: DocPage, { title, html, sections }: Rendered): string {
  const nav = DOC_PAGES.map(
    (p) =>
      `<li><a href="${pageHref(p)}"${p === page ? ' aria-current="page"' : ''}>${escapeHtml(p.title)}</a>${
        p === page && sections.length > 0
          ? `<ul>${sections.map((s) => `<li><a href="#${s.id}">${s.text}</a></li>`).join('')}</ul>`
          : ''
      }</li>`,
  ).join('');
  return `<!doctype html>
<html lang="en" class="dark">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title || page.title)} · Cumulus docs</title>
<style>${STYLE}</style>
</head>
<body>
<header><a href="/" class="home">Cumulus</a><span>Documentation</span><a href="/" class="console">Open the console</a></header>
<div class="wrap">
<nav aria-label="Documentation"><ul>${nav}</ul></nav>
<main>${html}</main>
</div>
</body>
</html>`;
}

// The console's dark theme, by hand: this page loads nothing else.
const STYLE = `
*{box-sizing:border-box}
html{color-scheme:dark}
body{margin:0;background:#0b0d12;color:#d8dce6;font:15px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
a{color:#7aa7ff}
header{display:flex;gap:12px;align-items:center;padding:12px 20px;border-bottom:1px solid #222836;position:sticky;top:0;background:#0b0d12}
header .home{font-weight:600;color:#fff;text-decoration:none}
header span{color:#8b93a7}
header .console{margin-left:auto;font-size:14px}
.wrap{display:flex;gap:32px;max-width:1200px;margin:0 auto;padding:20px}
nav{flex:0 0 220px;position:sticky;top:64px;align-self:flex-start;max-height:calc(100vh - 80px);overflow:auto;font-size:14px}
nav ul{list-style:none;margin:0;padding:0}
nav ul ul{padding-left:12px;margin:4px 0 8px;border-left:1px solid #222836}
nav li{margin:4px 0}
nav a{color:#b5bccb;text-decoration:none}
nav a[aria-current]{color:#fff;font-weight:600}
main{flex:1;min-width:0;overflow-wrap:anywhere}
h1,h2,h3{color:#fff;line-height:1.3}
h2{margin-top:2em;padding-bottom:4px;border-bottom:1px solid #222836}
h1 a.anchor,h2 a.anchor,h3 a.anchor,h4 a.anchor{color:inherit;text-decoration:none}
code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.88em;background:#161a23;padding:1px 4px;border-radius:4px}
pre{overflow-wrap:normal;background:#161a23;border:1px solid #222836;border-radius:8px;padding:12px 14px;overflow-x:auto}
pre code{background:none;padding:0}
.table{overflow-x:auto;margin:1em 0}
table{border-collapse:collapse;font-size:14px}
th,td{border:1px solid #222836;padding:6px 10px;text-align:left;vertical-align:top}
th{background:#161a23}
@media (max-width:768px){.wrap{display:block;padding:16px}nav{position:static;max-height:none;margin-bottom:16px}nav ul ul{display:none}header .console{display:none}}
`;
