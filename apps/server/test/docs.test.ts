import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOC_GROUPS, DOC_PAGES, pageBySlug, pageHref } from '../src/domains/platform/docs/manifest.js';
import { docsHref, render } from '../src/domains/platform/docs/markdown.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** Every file under `dir` (relative to the repository) whose name passes `keep`. */
function filesUnder(dir: string, keep: (name: string) => boolean): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== '__pycache__') out.push(...filesUnder(rel, keep));
    } else if (keep(entry.name)) out.push(rel);
  }
  return out;
}

const hrefsOf = (html: string) =>
  [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
const idsOf = (html: string) => new Set([...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]!));

describe('the documentation at /docs', () => {
  let ts: TestServer;
  /** Every served page's HTML, by its address. */
  const served = new Map<string, string>();

  beforeAll(async () => {
    ts = await startTestServer();
    for (const page of DOC_PAGES) {
      const res = await ts.api.get(pageHref(page));
      expect(res.status, pageHref(page)).toBe(200);
      served.set(pageHref(page), res.text);
    }
    // The search page is an address of /docs too: its links are checked with the pages'.
    served.set('/docs/search', (await ts.api.get('/docs/search')).text);
  });
  afterAll(() => ts?.close());

  it('opens on the overview, to anyone, with a navigation of every page in order', async () => {
    const res = await ts.api.get('/docs');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(res.text).toContain('<title>Cumulus documentation · Cumulus docs</title>');
    expect((await ts.api.get('/docs/')).text).toBe(res.text);

    const nav = res.text.slice(
      res.text.indexOf('<nav aria-label="Documentation">'),
      res.text.indexOf('</nav>'),
    );
    // The pages in the manifest's order, each once, the current one marked; groups label their lists.
    const listed = [...nav.matchAll(/<li><a href="([^"#]+)"/g)].map((m) => m[1]);
    expect(listed).toEqual(DOC_PAGES.map(pageHref));
    expect(nav).toContain('<a href="/docs" aria-current="page">Overview</a>');
    expect(nav.match(/aria-current/g)).toHaveLength(1);
    DOC_GROUPS.forEach((group, i) => {
      expect(nav).toContain(
        `<p class="group" id="nav-group-${i}">${group.title}</p><ul aria-labelledby="nav-group-${i}">`,
      );
    });
    // The current page's sections are listed under it.
    expect(nav).toContain('<a href="#use-cumulus">Use Cumulus</a>');
    // Keyboard users can skip the navigation.
    expect(res.text).toContain('<a class="skip" href="#content">Skip to content</a>');
    expect(res.text).toContain('<main id="content" tabindex="-1">');
  });

  it('serves every page of the manifest with its own title, one h1 and headings that carry anchors', () => {
    for (const page of DOC_PAGES) {
      const html = served.get(pageHref(page))!;
      const h1 = [...html.matchAll(/<h1 id="([^"]+)"><a class="anchor" href="#\1">([^<]*)<\/a><\/h1>/g)];
      expect(h1, page.file).toHaveLength(1);
      expect(html, page.file).toContain(`<title>${h1[0]![2]} · Cumulus docs</title>`);
      expect(html).toContain(`href="${pageHref(page)}" aria-current="page"`);
      for (const [, level, id] of html.matchAll(/<h([1-4]) id="([^"]+)">/g))
        expect(html, `${page.file} h${level}#${id}`).toContain(
          `<h${level} id="${id}"><a class="anchor" href="#${id}">`,
        );
      // Every row of a table is in it: a row split off would render as a paragraph of pipes.
      expect(html, page.file).not.toMatch(/<p>\|/);
    }
  });

  it('lists every Markdown file of docs/, and every page it lists exists', () => {
    const inDocs = filesUnder('docs', (name) => name.endsWith('.md'));
    expect(inDocs.length).toBeGreaterThan(10);
    for (const file of inDocs)
      expect(
        DOC_PAGES.map((p) => p.file),
        file,
      ).toContain(file);
    for (const page of DOC_PAGES) expect(statSync(path.join(ROOT, page.file)).isFile(), page.file).toBe(true);
    expect(new Set(DOC_PAGES.map((p) => p.slug)).size).toBe(DOC_PAGES.length);
  });

  it('turns links between Markdown files into /docs addresses, and every link leads to a page and anchor it has', () => {
    expect(hrefsOf(served.get('/docs/quickstart')!)).toContain('/docs/python-client#install-the-client');
    expect(hrefsOf(served.get('/docs')!)).toContain('/docs/server');
    expect(hrefsOf(served.get('/docs/architecture')!)).toContain('/docs/server#domains');
    expect(hrefsOf(served.get('/docs/server')!)).toContain('/docs/benchmarks');

    for (const [address, html] of served) {
      const ids = idsOf(html);
      for (const href of hrefsOf(html)) {
        const where = `${address} links to ${href}`;
        if (/^(https?:|mailto:)/.test(href)) continue;
        if (href.startsWith('#')) {
          expect(ids.has(href.slice(1)), where).toBe(true);
          continue;
        }
        if (href === '/') continue; // the console
        // Nothing relative is left: it would resolve against /docs/<page> and lead nowhere.
        const [target = '', anchor] = href.split('#', 2);
        expect(served.has(target), where).toBe(true);
        if (anchor !== undefined) expect(idsOf(served.get(target)!).has(anchor), where).toBe(true);
      }
    }
  });

  it('keeps every link the console, the server and the Python client make into /docs leading somewhere', () => {
    const sources = [
      ...filesUnder('apps/web/src', (n) => /\.(ts|tsx)$/.test(n) && !/\.test\.tsx?$/.test(n)),
      ...filesUnder('apps/server/src', (n) => n.endsWith('.ts')),
      ...filesUnder('python/cumulus', (n) => n.endsWith('.py')),
      ...filesUnder('scripts', (n) => n.endsWith('.sh')),
    ];
    const links = new Map<string, string>();
    for (const file of sources) {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      for (const [link] of text.matchAll(/(?<![\w./-])\/docs(?:\/[a-z0-9-]+)?(?:#[a-z0-9-]+)?(?![\w.])/g))
        links.set(link, file);
    }
    // The deep links known today are found (a scan that finds nothing would prove nothing).
    expect([...links.keys()]).toEqual(
      expect.arrayContaining([
        '/docs',
        '/docs/teams#roles-and-permissions',
        '/docs/operations#when-clusters-cannot-start',
      ]),
    );
    for (const [link, file] of links) {
      const [target = '', anchor] = link.split('#', 2);
      const page = served.get(target);
      expect(page, `${file}: ${link}`).toBeDefined();
      if (anchor !== undefined) expect(idsOf(page!).has(anchor), `${file}: ${link}`).toBe(true);
    }
  });

  it('answers an address that names no page with a 404 page that has the navigation, and reads no other file', async () => {
    for (const address of [
      '/docs/nope',
      '/docs/..%2Fpackage.json',
      '/docs/%2e%2e%2fpackage.json',
      '/docs/..%2F..%2Fetc%2Fpasswd',
      '/docs/quickstart.md',
      '/docs/index',
      '/docs/clusters/',
      '/docs/a/b',
    ]) {
      const res = await ts.api.get(address);
      expect(res.status, address).toBe(404);
      expect(res.headers['content-type'], address).toMatch(/^text\/html/);
      expect(res.text, address).toContain('<title>Page not found · Cumulus docs</title>');
      expect(res.text, address).toContain('<nav aria-label="Documentation">');
      expect(res.text, address).not.toContain('aria-current="page"');
      expect(res.text, address).not.toContain('"devDependencies"');
      expect(res.text, address).not.toContain('root:');
    }
    // Dot segments are resolved before routing, as a browser does: this is /package.json, no page.
    expect((await ts.api.get('/docs/../package.json')).text).not.toContain('"devDependencies"');
    // What was asked is shown as text, never as markup.
    const res = await ts.api.get('/docs/%3Cscript%3E');
    expect(res.status).toBe(404);
    expect(res.text).not.toContain('<script>');
  });

  it('keeps code text and escapes once', async () => {
    const aws = served.get('/docs/aws')!;
    expect(aws).toContain(
      '<td><code>AWS_ENDPOINT_URL</code>, <code>AWS_ENDPOINT_URL_&lt;SERVICE&gt;</code></td>',
    );
    // The contents show an apostrophe, not its entity, and nothing is escaped twice.
    const consoleGuide = served.get('/docs/console')!;
    expect(consoleGuide).toContain('<a href="#a-features-folder">A feature\'s folder</a>');
    for (const [address, html] of served) expect(html, address).not.toMatch(/&amp;(#39|quot|lt|gt|amp);/);
  });

  it('lets the keyboard reach every box that scrolls sideways: code and tables are focusable, named regions', () => {
    const operations = served.get('/docs/operations')!;
    expect(operations).toContain('<pre tabindex="0" role="region" aria-label="Code">');
    expect(operations).toContain('<div class="table" tabindex="0" role="region" aria-label="Table"><table>');
    for (const [address, html] of served) {
      expect(html, address).not.toMatch(/<pre>|<pre class=/);
      expect(html, address).not.toContain('<div class="table">');
    }
  });

  describe('search', () => {
    const search = (q: string) => ts.api.get(`/docs/search?q=${encodeURIComponent(q)}`);
    /** The listed results (the navigation's links are not among them). */
    const resultsOf = (html: string) => {
      const list = /<ol class="results">([\s\S]*?)<\/ol>/.exec(html)?.[1] ?? '';
      return [...list.matchAll(/<li><a href="([^"]+)">([\s\S]*?)<\/a><p>([\s\S]*?)<\/p><\/li>/g)].map(
        (m) => ({
          href: m[1]!,
          name: m[2]!.replace(/<[^>]+>/g, '').replace(/\s+/g, ' '),
          snippet: m[3]!,
        }),
      );
    };

    it('has a box on every page: a plain form (no script), labelled, that keeps what was asked', async () => {
      for (const [address, html] of served) {
        expect(html, address).toContain(
          '<form role="search" action="/docs/search" method="get" class="search">',
        );
        expect(html, address).toContain(
          '<label for="docs-search" class="sr-only">Search the documentation</label>',
        );
        expect(html, address).toContain('<input id="docs-search" type="search" name="q" value=""');
      }
      // The CSP lets the form go to this server, and still runs no script.
      const res = await search('idle timeout');
      expect(res.headers['content-security-policy']).toMatch(/form-action 'self'/);
      expect(res.headers['content-security-policy']).toMatch(/default-src 'none'/);
      expect(res.text).toContain('value="idle timeout"');
    });

    it("finds sections across every page by their words, linked to the section's anchor", async () => {
      const res = await search('Idle_Timeout');
      expect(res.status).toBe(200);
      expect(res.text).toContain('<title>Results for Idle_Timeout · Cumulus docs</title>');
      expect(res.text).toContain('<h1 id="search">Results for “Idle_Timeout”</h1>');
      const results = resultsOf(res.text);
      expect(results.length).toBeGreaterThan(1);
      expect(results).toContainEqual(
        expect.objectContaining({
          href: '/docs/clusters#names-limits-and-stopping',
          name: 'Clusters: › Names, limits and stopping',
        }),
      );
      // On several pages, and each link leads to a served page and an anchor it has.
      expect(new Set(results.map((r) => r.href.split('#')[0])).size).toBeGreaterThan(1);
      for (const { href } of results) {
        const [target = '', anchor] = href.split('#', 2);
        expect(served.has(target), href).toBe(true);
        if (anchor !== undefined) expect(idsOf(served.get(target)!).has(anchor), href).toBe(true);
      }
      // The words are marked in the text around them.
      expect(results[0]!.snippet.toLowerCase()).toContain('<mark>idle_timeout</mark>');
    });

    it('needs every word, ranks a heading match first, and finds page titles', async () => {
      const both = resultsOf((await search('tls certificate')).text);
      expect(both.length).toBeGreaterThan(0);
      for (const r of both) expect(r.snippet.toLowerCase()).toMatch(/tls|certificate/);
      // A section named by the words comes before one that only mentions them.
      expect(resultsOf((await search('security tls')).text)[0]!.href).toBe('/docs/clusters#security-tls');
      // A page's title leads to the page itself.
      const notebooks = resultsOf((await search('notebooks')).text);
      expect(notebooks.map((r) => r.href)).toContain('/docs/notebooks');
    });

    it('says when nothing holds the words, and shows what was asked as text', async () => {
      const res = await search('<script>zzqx</script>');
      expect(res.status).toBe(200);
      expect(res.text).toContain('<h1 id="search">No results for “&lt;script&gt;zzqx&lt;/script&gt;”</h1>');
      expect(res.text).not.toContain('<script>');
      expect(resultsOf(res.text)).toEqual([]);
      // No words: how to search, no results.
      const empty = await ts.api.get('/docs/search');
      expect(empty.status).toBe(200);
      expect(empty.text).toContain('<h1 id="search">Search the documentation</h1>');
      // A long paste is cut, not refused.
      expect((await search('x'.repeat(5000))).status).toBe(200);
    });
  });
});

describe('Markdown for /docs', () => {
  const page = pageBySlug.get('architecture')!;

  it('gives headings GitHub’s anchors, a repeated one numbered, with no link nested in the anchor', () => {
    const { html, ids, title, sections } = render(
      '# The `cumulus login` command\n\n## Usage & billing\n\n## Usage & billing\n\n## See [clusters](clusters.md)\n',
      page,
    );
    expect(title).toBe('The cumulus login command');
    expect([...ids]).toEqual([
      'the-cumulus-login-command',
      'usage--billing',
      'usage--billing-1',
      'see-clusters',
    ]);
    expect(sections.map((s) => s.text)).toEqual(['Usage & billing', 'Usage & billing', 'See clusters']);
    expect(html).toContain(
      '<h2 id="see-clusters"><a class="anchor" href="#see-clusters">See clusters</a></h2>',
    );
  });

  it('leads relative links to served pages, and leaves the rest as written', () => {
    expect(docsHref('clusters.md', 'docs/architecture.md')).toBe('/docs/clusters');
    expect(docsHref('teams.md#roles-and-permissions', 'docs/clusters.md')).toBe(
      '/docs/teams#roles-and-permissions',
    );
    expect(docsHref('../apps/server/README.md#domains', 'docs/architecture.md')).toBe('/docs/server#domains');
    expect(docsHref('../../docs/architecture.md', 'apps/server/README.md')).toBe('/docs/architecture');
    expect(docsHref('index.md', 'docs/quickstart.md')).toBe('/docs');
    expect(docsHref('bench/README.md', 'apps/server/README.md')).toBe('/docs/benchmarks');
    for (const href of ['https://www.dask.org', '#local', '/api/openapi.json', 'mailto:a@b.c'])
      expect(docsHref(href, 'docs/index.md')).toBe(href);
    expect(docsHref('../package.json', 'docs/index.md')).toBe('../package.json');
  });

  it('links a page named in code, except inside a link', () => {
    expect(render('See `docs/clusters.md`.', page).html).toContain(
      '<a href="/docs/clusters"><code>docs/clusters.md</code></a>',
    );
    const inLink = render('See [`docs/clusters.md`](clusters.md).', page).html;
    expect(inLink).toContain('<a href="/docs/clusters"><code>docs/clusters.md</code></a>');
    expect(inLink.match(/<a /g)).toHaveLength(1);
  });
});
