import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Access is resolved once per request (docs/architecture.md, "How a request is authorized"): a
// route declares what it needs in its config, the one pre-handler (http/access.ts) hands that to
// the resolvers the domains give it, and handlers and services take what was resolved from
// request.access. So the functions that decide access are called from the resolvers' modules
// only; a route or a service that calls one resolves access itself, and this test names it.

/** The functions that look access up (by slug, id or row) and refuse. */
const DECIDERS = [
  'workspaceAccess',
  'workspaceAccessBy',
  'organizationAccess',
  'resolveScope',
  'readableWorkspaceIds',
  'clusterAccess',
  'clusterAccessById',
  'instanceAccessById',
];

/** Where they may be called: where they are defined, and the resolvers of the pre-handler. */
const RESOLVER_MODULES = [
  'domains/identity/access/organization.ts',
  'domains/identity/access/scopes.ts',
  'domains/identity/access/workspace.ts',
  'domains/identity/access/resolve.ts',
  'domains/clusters/access.ts',
  'domains/batch/access.ts',
];

/**
 * Files not converted yet: they still resolve access in a route or a service. The list only
 * shrinks; the test fails when a file here no longer resolves access (take it out) and when a
 * file not here does (declare the need in the route's config instead).
 */
const NOT_CONVERTED: string[] = [
  'domains/clusters/analytics/read-routes.ts',
  'domains/clusters/analytics/routes.ts',
  'domains/clusters/metrics/routes.ts',
];

const SRC = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');

/** Calls of a decider in a file (comments and strings are not calls), as `path:line name`. */
function callsOf(path: string, text: string): string[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const name = ts.isIdentifier(callee)
        ? callee.text
        : ts.isPropertyAccessExpression(callee)
          ? callee.name.text
          : null;
      if (name && DECIDERS.includes(name))
        found.push(`${path}:${file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1} ${name}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

function offenders(sources: Map<string, string>): string[] {
  return [...sources]
    .filter(([path]) => !RESOLVER_MODULES.includes(path))
    .flatMap(([path, text]) => callsOf(path, text));
}

function sourcesUnder(dir: string): Map<string, string> {
  const sources = new Map<string, string>();
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts'))
        sources.set(relative(dir, path).split(sep).join('/'), readFileSync(path, 'utf8'));
    }
  };
  walk(dir);
  return sources;
}

describe('the access check', () => {
  it('finds a service or a route that resolves access itself, and nothing in comments or strings', () => {
    const planted = new Map([
      [
        'domains/software/service.ts',
        [
          "import { workspaceAccess } from '../identity/index.js';",
          '// workspaceAccess(db, user, slug) is not called here',
          "const s = 'organizationAccess(db)';",
          'export const f = async () => workspaceAccess(db, user, slug);',
          'export const g = async () => identity.clusterAccessById(db, user, 3);',
        ].join('\n'),
      ],
      ['domains/identity/access/resolve.ts', 'workspaceAccessBy(db, user, key);'],
    ]);
    expect(offenders(planted)).toEqual([
      'domains/software/service.ts:4 workspaceAccess',
      'domains/software/service.ts:5 clusterAccessById',
    ]);
  });
});

describe('access resolved once', () => {
  const found = offenders(sourcesUnder(SRC));
  const files = [...new Set(found.map((f) => f.split(':')[0]!))].sort();
  console.info(
    `access: ${found.length} calls that resolve access outside the pre-handler's resolvers, in ` +
      `${files.length} files not converted yet`,
  );

  it('resolves access only in the resolvers of the one pre-handler', () => {
    expect(
      found.filter((f) => !NOT_CONVERTED.includes(f.split(':')[0]!)),
      'declare the need in the route config and take request.access',
    ).toEqual([]);
  });

  it('lists as not converted only files that still resolve access', () => {
    expect(NOT_CONVERTED.filter((f) => !files.includes(f))).toEqual([]);
  });
});
