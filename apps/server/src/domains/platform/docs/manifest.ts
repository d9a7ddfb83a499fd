/**
 * The pages /docs serves, in the order its navigation lists them: files of the checkout this
 * server runs from. Only these are ever read, so a page name can never reach another file.
 * A new page is a file under docs/ and a line here (docs.test.ts fails on a file left out).
 */
export interface DocPage {
  /** `/docs/<slug>`; the empty slug is `/docs` itself. */
  slug: string;
  /** Path from the repository's root. */
  file: string;
  /** The page's name in the navigation. */
  title: string;
}

export interface DocGroup {
  title: string;
  pages: readonly DocPage[];
}

export const DOC_GROUPS: readonly DocGroup[] = [
  {
    title: 'Use Cumulus',
    pages: [
      { slug: '', file: 'docs/index.md', title: 'Overview' },
      { slug: 'quickstart', file: 'docs/quickstart.md', title: 'Quickstart' },
      { slug: 'python-client', file: 'docs/python-client.md', title: 'Python client and CLI' },
      { slug: 'clusters', file: 'docs/clusters.md', title: 'Clusters' },
      { slug: 'software', file: 'docs/software.md', title: 'Software environments' },
      { slug: 'batch', file: 'docs/batch.md', title: 'Batch jobs' },
      { slug: 'analytics', file: 'docs/analytics.md', title: 'Analytics' },
      { slug: 'run-and-functions', file: 'docs/run-and-functions.md', title: 'Run, functions, hardware' },
      { slug: 'notebooks', file: 'docs/notebooks.md', title: 'Notebooks' },
    ],
  },
  {
    title: 'Administer and operate',
    pages: [
      { slug: 'sso', file: 'docs/sso.md', title: 'Single sign-on, Google and GitHub' },
      { slug: 'teams', file: 'docs/teams.md', title: 'Teams and limits' },
      { slug: 'usage-and-billing', file: 'docs/usage-and-billing.md', title: 'Usage and billing' },
      { slug: 'aws', file: 'docs/aws.md', title: 'Clusters in your AWS account' },
      { slug: 'gcp', file: 'docs/gcp.md', title: 'Google Cloud (in progress)' },
      { slug: 'ssh-hosts', file: 'docs/ssh-hosts.md', title: 'Clusters on your own machines' },
      { slug: 'slurm', file: 'docs/slurm.md', title: 'Clusters on a Slurm cluster' },
      { slug: 'operations', file: 'docs/operations.md', title: 'Operations and configuration' },
      { slug: 'api', file: 'docs/api.md', title: 'Using the API' },
    ],
  },
  {
    title: 'Develop',
    pages: [
      { slug: 'architecture', file: 'docs/architecture.md', title: 'Architecture' },
      { slug: 'server', file: 'apps/server/README.md', title: 'Server map' },
      { slug: 'benchmarks', file: 'apps/server/bench/README.md', title: 'Benchmarks' },
      { slug: 'console', file: 'apps/web/README.md', title: 'Console development' },
      { slug: 'agent-protocol', file: 'python/cumulus/agent/PROTOCOL.md', title: 'Instance agent protocol' },
    ],
  },
];

export const DOC_PAGES: readonly DocPage[] = DOC_GROUPS.flatMap((g) => g.pages);

export const pageHref = (page: DocPage) => (page.slug ? `/docs/${page.slug}` : '/docs');
export const pageBySlug = new Map(DOC_PAGES.map((p) => [p.slug, p]));
export const pageByFile = new Map(DOC_PAGES.map((p) => [p.file, p]));
