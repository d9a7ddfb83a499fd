import { DOC_GROUPS, type DocPage, pageHref } from './manifest.js';
import { escapeHtml, type Rendered } from './markdown.js';
import { MAX_RESULTS, SEARCH_PATH, type SearchResult } from './search.js';

/** A served page: the navigation of every page (this one's sections under it), then its text. */
export function pageHtml(page: DocPage, { title, html, sections }: Rendered): string {
  return shell(title || page.title, nav(page, sections), html);
}

/**
 * The search page: what was asked, then each section that holds every word, linked to its
 * anchor, with the text around the match; or that nothing does.
 */
export function searchHtml(query: string, results: readonly SearchResult[]): string {
  const asked = query.trim();
  if (!asked) {
    const body = `<h1 id="search">Search the documentation</h1>
<p>Type one or more words in the search box above: every page's title, headings and text are searched, and
each section holding all the words is listed.</p>`;
    return shell('Search', nav(null, []), body, '');
  }
  const quoted = `“${escapeHtml(asked)}”`;
  if (results.length === 0) {
    const body = `<h1 id="search">No results for ${quoted}</h1>
<p role="status">No page's title, headings or text holds every one of these words. Try fewer or other words,
or browse the pages in the navigation.</p>`;
    return shell(`No results for ${asked}`, nav(null, []), body, asked);
  }
  const count =
    results.length >= MAX_RESULTS
      ? `The first ${results.length} sections`
      : `${results.length} ${results.length === 1 ? 'section' : 'sections'}`;
  const items = results
    .map((r) => {
      const name = r.heading
        ? `${escapeHtml(r.pageTitle)}<span class="sr-only">:</span> <span class="sep" aria-hidden="true">›</span> ${escapeHtml(r.heading)}`
        : escapeHtml(r.pageTitle);
      return `<li><a href="${r.href}">${name}</a><p>${r.snippet}</p></li>`;
    })
    .join('\n');
  const body = `<h1 id="search">Results for ${quoted}</h1>
<p role="status">${count} ${results.length === 1 ? 'holds' : 'hold'} every word.</p>
<ol class="results">
${items}
</ol>`;
  return shell(`Results for ${asked}`, nav(null, []), body, asked);
}

/** The answer to an address that names no page: the navigation, so the reader can go on. */
export function notFoundHtml(requested: string): string {
  const body = `<h1 id="page-not-found">Page not found</h1>
<p>This documentation has no page <code>${escapeHtml(requested.slice(0, 200))}</code>. Every page is listed in the
navigation; the <a href="/docs">overview</a> says what each one covers.</p>`;
  return shell('Page not found', nav(null, []), body, '');
}

function nav(current: DocPage | null, sections: Rendered['sections']): string {
  const groups = DOC_GROUPS.map((group, i) => {
    const items = group.pages
      .map((p) => {
        const here = p === current;
        const contents =
          here && sections.length > 0
            ? `<ul class="toc">${sections.map((s) => `<li><a href="#${s.id}">${escapeHtml(s.text)}</a></li>`).join('')}</ul>`
            : '';
        return `<li><a href="${pageHref(p)}"${here ? ' aria-current="page"' : ''}>${escapeHtml(p.title)}</a>${contents}</li>`;
      })
      .join('');
    return `<p class="group" id="nav-group-${i}">${escapeHtml(group.title)}</p><ul aria-labelledby="nav-group-${i}">${items}</ul>`;
  }).join('\n');
  return `<nav aria-label="Documentation">\n${groups}\n</nav>`;
}

/** The search box every page carries: a plain form, so it needs no script (the CSP allows none). */
function searchForm(query: string): string {
  return `<form role="search" action="${SEARCH_PATH}" method="get" class="search">
<label for="docs-search" class="sr-only">Search the documentation</label>
<input id="docs-search" type="search" name="q" value="${escapeHtml(query)}" placeholder="Search the docs" maxlength="200" autocomplete="off">
<button type="submit">Search</button>
</form>`;
}

function shell(title: string, navigation: string, main: string, query = ''): string {
  return `<!doctype html>
<html lang="en" class="dark">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Cumulus docs</title>
<style>${STYLE}</style>
</head>
<body>
<a class="skip" href="#content">Skip to content</a>
<header><a href="/docs" class="home">Cumulus</a><span>Documentation</span>${searchForm(query)}<a href="/" class="console">Open the console</a></header>
<div class="wrap">
${navigation}
<main id="content" tabindex="-1">${main}</main>
</div>
</body>
</html>`;
}

// The console's dark theme, by hand: this page loads nothing else (its CSP allows no script).
const STYLE = `
*{box-sizing:border-box}
html{color-scheme:dark}
body{margin:0;background:#0b0d12;color:#d8dce6;font:15px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
a{color:#7aa7ff}
a:focus-visible{outline:2px solid #7aa7ff;outline-offset:2px;border-radius:2px}
pre:focus-visible,.table:focus-visible{outline:2px solid #7aa7ff;outline-offset:2px}
main:focus{outline:none}
.skip{position:absolute;left:8px;top:-48px;z-index:2;padding:8px 12px;background:#161a23;border:1px solid #7aa7ff;border-radius:6px}
.skip:focus{top:8px}
header{display:flex;gap:12px;align-items:center;padding:12px 20px;border-bottom:1px solid #222836;position:sticky;top:0;z-index:1;background:#0b0d12}
header .home{font-weight:600;color:#fff;text-decoration:none}
header span{color:#8b93a7}
header .console{font-size:14px}
.search{margin-left:auto;display:flex;gap:6px;flex:0 1 340px;min-width:0}
.search input{flex:1;min-width:0;padding:6px 10px;border:1px solid #3a4256;border-radius:6px;background:#11151d;color:#d8dce6;font:inherit;font-size:14px}
.search input::placeholder{color:#8b93a7}
.search input:focus-visible,.search button:focus-visible{outline:2px solid #7aa7ff;outline-offset:1px}
.search button{padding:6px 12px;border:1px solid #3a4256;border-radius:6px;background:#1c2230;color:#fff;font:inherit;font-size:14px;cursor:pointer}
.search button:hover{background:#262d3e}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
ol.results{list-style:none;padding:0}
ol.results li{margin:0 0 18px}
ol.results a{font-weight:600}
ol.results .sep{color:#8b93a7;font-weight:400;margin:0 2px}
ol.results p{margin:4px 0 0;color:#b5bccb;font-size:14px}
mark{background:#2b3a5c;color:#fff;border-radius:2px;padding:0 1px}
.wrap{display:flex;gap:32px;max-width:1200px;margin:0 auto;padding:20px}
nav{flex:0 0 230px;position:sticky;top:64px;align-self:flex-start;max-height:calc(100vh - 80px);overflow:auto;font-size:14px}
nav .group{margin:16px 0 4px;color:#8b93a7;font-size:12px;font-weight:600;letter-spacing:.04em;text-transform:uppercase}
nav .group:first-child{margin-top:0}
nav ul{list-style:none;margin:0;padding:0}
nav ul.toc{padding-left:12px;margin:4px 0 8px;border-left:1px solid #222836}
nav li{margin:4px 0}
nav a{color:#b5bccb;text-decoration:none}
nav a:hover{color:#fff;text-decoration:underline}
nav a[aria-current]{color:#fff;font-weight:600}
main{flex:1;min-width:0;max-width:860px;overflow-wrap:anywhere}
h1,h2,h3,h4{color:#fff;line-height:1.3;scroll-margin-top:64px}
h2{margin-top:2em;padding-bottom:4px;border-bottom:1px solid #222836}
h1 a.anchor,h2 a.anchor,h3 a.anchor,h4 a.anchor{color:inherit;text-decoration:none}
h1 a.anchor:hover,h2 a.anchor:hover,h3 a.anchor:hover,h4 a.anchor:hover{text-decoration:underline}
code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.88em;background:#161a23;padding:1px 4px;border-radius:4px}
pre{overflow-wrap:normal;background:#161a23;border:1px solid #222836;border-radius:8px;padding:12px 14px;overflow-x:auto}
pre code{background:none;padding:0}
.table{overflow-x:auto;margin:1em 0}
table{border-collapse:collapse;font-size:14px;overflow-wrap:normal}
td code{white-space:nowrap}
th,td{border:1px solid #222836;padding:6px 10px;text-align:left;vertical-align:top}
th{background:#161a23}
blockquote{margin:1em 0;padding:4px 16px;border-left:3px solid #7aa7ff;background:#11151d}
@media (max-width:768px){
.wrap{display:block;padding:16px}
nav{position:static;max-height:none;margin-bottom:20px;padding-bottom:12px;border-bottom:1px solid #222836}
nav ul{display:flex;flex-wrap:wrap;gap:2px 16px}
nav ul.toc{display:none}
header{flex-wrap:wrap;padding:10px 16px;row-gap:8px}
.search{flex:1 1 100%;order:3}
header .console{display:none}
}
`;
