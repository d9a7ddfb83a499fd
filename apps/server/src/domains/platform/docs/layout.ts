import { DOC_GROUPS, type DocPage, pageHref } from './manifest.js';
import { escapeHtml, type Rendered } from './markdown.js';

/** A served page: the navigation of every page (this one's sections under it), then its text. */
export function pageHtml(page: DocPage, { title, html, sections }: Rendered): string {
  return shell(title || page.title, nav(page, sections), html);
}

/** The answer to an address that names no page: the navigation, so the reader can go on. */
export function notFoundHtml(requested: string): string {
  const body = `<h1 id="page-not-found">Page not found</h1>
<p>This documentation has no page <code>${escapeHtml(requested.slice(0, 200))}</code>. Every page is listed in the
navigation; the <a href="/docs">overview</a> says what each one covers.</p>`;
  return shell('Page not found', nav(null, []), body);
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

function shell(title: string, navigation: string, main: string): string {
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
<header><a href="/docs" class="home">Cumulus</a><span>Documentation</span><a href="/" class="console">Open the console</a></header>
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
header .console{margin-left:auto;font-size:14px}
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
header .console{display:none}
}
`;
