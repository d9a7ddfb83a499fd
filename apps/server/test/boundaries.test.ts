import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as schema from '../src/db/schema/index.js';
import { DOMAIN_MODULES } from '../src/modules.js';

// The server's shape (docs/architecture.md): the kernel (db, http, lib, loops, mail, compute,
// config) sits below every domain and knows none of them; each domain lives in src/domains/<name>/
// and other domains reach it only through its index.ts; domains depend downwards only, in this
// order, so there is no cycle; each table belongs to one domain, and the others read it through
// what that domain exports (its read model), never by naming the table.

/** Lowest first (the order of DOMAIN_MODULES): a domain may import the faces of the domains before it, never after. */
const DOMAINS = DOMAIN_MODULES.map((domain) => domain.name);

/** Files that assemble the app (and the admin command line): they import domains, through their faces. */
const ROOTS = ['app.ts', 'server.ts', 'main.ts', 'admin.ts', 'modules.ts'];

/**
 * Who owns each table (the name db/schema exports it by): the domain whose module lists it, or
 * `kernel` (the mail outbox and when the control plane served).
 */
const TABLE_OWNERS: Record<string, string> = {
  ...Object.fromEntries(
    DOMAIN_MODULES.flatMap((domain) => Object.keys(domain.tables).map((table) => [table, domain.name])),
  ),
  emailOutbox: 'kernel',
  controlPlane: 'kernel',
};

const SRC = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');

/** A source file by its path under src/ (posix separators). */
type Sources = Map<string, string>;

interface Import {
  specifier: string;
  /** `import type` / `export type`, or every name marked `type`: gone once compiled. */
  typeOnly: boolean;
  /** Names brought in as values (a namespace import: `*`). */
  values: string[];
  line: number;
}

/** Every module a file names: imports, re-exports, dynamic `import()`; comments are not code. */
function importsOf(path: string, text: string): Import[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: Import[] = [];
  const lineOf = (node: ts.Node) => file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      const specifier = (node.moduleSpecifier as ts.StringLiteral).text;
      const clause = ts.isImportDeclaration(node) ? node.importClause : undefined;
      const wholeTypeOnly = clause?.isTypeOnly ?? (ts.isExportDeclaration(node) && node.isTypeOnly);
      const bindings = clause ? clause.namedBindings : (node as ts.ExportDeclaration).exportClause;
      const values: string[] = [];
      if (bindings && (ts.isNamedImports(bindings) || ts.isNamedExports(bindings))) {
        for (const element of bindings.elements)
          if (!wholeTypeOnly && !element.isTypeOnly) values.push((element.propertyName ?? element.name).text);
      } else if (!wholeTypeOnly) values.push('*');
      if (clause?.name && !wholeTypeOnly) values.push('default');
      const typeOnly =
        wholeTypeOnly || (values.length === 0 && (clause !== undefined || bindings !== undefined));
      found.push({ specifier, typeOnly, values, line: lineOf(node) });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push({ specifier: node.arguments[0].text, typeOnly: false, values: ['*'], line: lineOf(node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** The text of every string and template literal, with its line. */
function literalsOf(path: string, text: string): { line: number; text: string }[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: { line: number; text: string }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node))
      found.push({ line: file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1, text: node.text });
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** The file a relative specifier names (`./x.js` is `./x.ts`; a folder is its index.ts), or null. */
function resolveIn(sources: Sources, importer: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = posix.normalize(posix.join(posix.dirname(importer), specifier));
  const candidates = base.endsWith('.js')
    ? [base.replace(/\.js$/, '.ts')]
    : [base, `${base}.ts`, `${base}/index.ts`];
  return candidates.find((c) => sources.has(c)) ?? (base.startsWith('..') ? null : candidates[0]!);
}

/** `domains/<name>/...` -> name; roots -> `root`; anything else under src/ -> `kernel`. */
function unitOf(path: string): string {
  const parts = path.split('/');
  if (parts[0] === 'domains' && parts.length > 2) return parts[1]!;
  if (ROOTS.includes(path)) return 'root';
  return 'kernel';
}

/** Tables db/schema defines: exported name -> SQL name. */
function tablesOf(sources: Sources): Map<string, string> {
  const tables = new Map<string, string>();
  for (const [path, text] of sources) {
    if (!path.startsWith('db/schema/')) continue;
    for (const m of text.matchAll(/export const (\w+) = pgTable\(\s*['"](\w+)['"]/g))
      tables.set(m[1]!, m[2]!);
  }
  return tables;
}

/** Where db/schema defines each table: exported name -> its folder (db/schema/<folder>/file.ts). */
function tableFoldersOf(sources: Sources): Map<string, string> {
  const folders = new Map<string, string>();
  for (const [path, text] of sources) {
    const folder = path.match(/^db\/schema\/([^/]+)\/[^/]+\.ts$/)?.[1];
    if (!folder) continue;
    for (const m of text.matchAll(/export const (\w+) = pgTable\(/g)) folders.set(m[1]!, folder);
  }
  return folders;
}

/** Strongly connected components of more than one unit: the import cycles. */
function cyclesOf(edges: Map<string, Set<string>>): string[][] {
  let index = 0;
  const stack: string[] = [];
  const on = new Set<string>();
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const cycles: string[][] = [];
  const connect = (v: string) => {
    indexOf.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!indexOf.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, indexOf.get(w)!));
    }
    if (low.get(v) === indexOf.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const v of edges.keys()) if (!indexOf.has(v)) connect(v);
  return cycles;
}

interface Report {
  deepImports: string[];
  kernelImports: string[];
  upwardImports: string[];
  cycles: string[][];
  /** Files that import each other, through any number of others (type imports too), anywhere. */
  fileCycles: string[][];
  foreignTables: string[];
  unownedTables: string[];
  edges: Map<string, Set<string>>;
}

function analyse(sources: Sources): Report {
  const tables = tablesOf(sources);
  const sqlOwners = new Map([...tables].map(([name, sql]) => [sql, TABLE_OWNERS[name]]));
  const report: Report = {
    deepImports: [],
    kernelImports: [],
    upwardImports: [],
    cycles: [],
    fileCycles: [],
    foreignTables: [],
    unownedTables: [...tables.keys()].filter((t) => !TABLE_OWNERS[t]),
    edges: new Map(),
  };
  const files = new Map<string, Set<string>>();
  for (const [path, text] of sources) {
    if (path.startsWith('db/schema/')) continue;
    const from = unitOf(path);
    for (const imp of importsOf(path, text)) {
      const target = resolveIn(sources, path, imp.specifier);
      if (!target) continue;
      if (sources.has(target)) files.set(path, (files.get(path) ?? new Set()).add(target));
      const at = `${path}:${imp.line} imports ${imp.specifier}`;
      const to = unitOf(target);
      if (to !== 'kernel' && to !== 'root' && to !== from) {
        if (from === 'kernel') report.kernelImports.push(`${at}: the kernel knows no domain`);
        else if (target !== `domains/${to}/index.ts`)
          report.deepImports.push(`${at}: other domains enter ${to} through domains/${to}/index.ts`);
        if (from !== 'kernel' && from !== 'root') {
          if (!report.edges.has(from)) report.edges.set(from, new Set());
          report.edges.get(from)!.add(to);
          if (DOMAINS.indexOf(to) > DOMAINS.indexOf(from))
            report.upwardImports.push(`${at}: ${from} sits below ${to} (${DOMAINS.join(' < ')})`);
        }
      }
      if (target.startsWith('db/schema/') && !path.startsWith('db/')) {
        for (const name of imp.values) {
          const owner = name === '*' ? '*' : TABLE_OWNERS[name];
          if (owner === '*') report.foreignTables.push(`${at}: names every table (import the ones you own)`);
          else if (owner && owner !== from && !(owner === 'kernel' && from === 'kernel'))
            report.foreignTables.push(`${at}: ${name} belongs to ${owner}; read it through ${owner}'s face`);
        }
      }
    }
    // SQL written by hand (in strings and sql`` templates) names tables too.
    for (const { line, text: literal } of literalsOf(path, text))
      for (const m of literal.matchAll(/\b(?:from|join|update|into)\s+"?([a-z_]+)"?/gi)) {
        const owner = sqlOwners.get(m[1]!);
        if (owner && owner !== from && !(owner === 'kernel' && from === 'kernel'))
          report.foreignTables.push(`${path}:${line} writes SQL on ${m[1]}, which belongs to ${owner}`);
      }
    for (const m of text.matchAll(/\.query\.(\w+)\b/g)) {
      const owner = TABLE_OWNERS[m[1]!];
      if (owner && owner !== from)
        report.foreignTables.push(`${path}: queries ${m[1]}, which belongs to ${owner}`);
    }
  }
  report.cycles = cyclesOf(report.edges);
  report.fileCycles = cyclesOf(files);
  return report;
}

function sourcesUnder(dir: string): Sources {
  const sources: Sources = new Map();
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

describe('the boundary check', () => {
  const planted: Sources = new Map([
    [
      'db/schema/a.ts',
      "export const clusters = pgTable('clusters', {});\nexport const users = pgTable('users', {});",
    ],
    ['db/client.ts', ''],
    ['http/errors.ts', "import { x } from '../domains/clusters/index.js';"],
    ['domains/identity/index.ts', "export { y } from './users/service.js';"],
    [
      'domains/identity/users/service.ts',
      "import { z } from '../../clusters/service.js';\nexport const y = 1;",
    ],
    [
      'domains/clusters/index.ts',
      "export { z } from './service.js';\nimport type { Y } from '../identity/index.js';",
    ],
    [
      'domains/clusters/service.ts',
      [
        "import { type User, users } from '../../db/schema/index.js';",
        "import type { users as u2 } from '../../db/schema/a.js';",
        "// import { w } from '../software/deep.js';",
        'const q = sql`select 1 from users`;',
        "const page = () => import('../billing/index.js');",
      ].join('\n'),
    ],
    ['domains/software/index.ts', ''],
    ['domains/billing/index.ts', ''],
    ['domains/software/deep.ts', ''],
    ['compute/a.ts', "import type { B } from './b.js';\nexport type A = 1;"],
    ['compute/b.ts', "import type { A } from './a.js';\nexport type B = 2;"],
    ['domains/software/a.ts', "import { b } from './b.js';\nexport const a = 1;"],
    ['domains/software/b.ts', "import { c } from './c.js';\nexport const b = 2;"],
    ['domains/software/c.ts', "export { a } from './a.js';"],
  ]);
  planted.set('db/schema/index.ts', "export * from './a.js';");
  const report = analyse(planted);

  it('finds deep imports, a kernel reaching into a domain, cycles and upward imports', () => {
    expect(report.deepImports).toEqual([
      expect.stringContaining('domains/identity/users/service.ts:1 imports ../../clusters/service.js'),
    ]);
    expect(report.kernelImports).toEqual([expect.stringContaining('http/errors.ts:1')]);
    expect(report.cycles).toEqual([['clusters', 'identity']]);
    expect(report.upwardImports).toEqual([
      expect.stringContaining('domains/identity/users/service.ts:1'),
      expect.stringContaining('domains/clusters/service.ts:5'),
    ]);
  });

  it('finds files that import each other inside the kernel or a domain, through others and type imports too', () => {
    expect(report.fileCycles).toEqual([
      ['compute/a.ts', 'compute/b.ts'],
      ['domains/software/a.ts', 'domains/software/b.ts', 'domains/software/c.ts'],
    ]);
  });

  it("finds another domain's tables named in imports and in SQL, and tables nobody owns", () => {
    expect(report.foreignTables).toEqual([
      expect.stringContaining(
        'domains/clusters/service.ts:1 imports ../../db/schema/index.js: users belongs to identity',
      ),
      expect.stringContaining('domains/clusters/service.ts:4 writes SQL on users'),
    ]);
    expect(
      analyse(new Map([['db/schema/x.ts', "export const mystery = pgTable('mystery', {});"]])).unownedTables,
    ).toEqual(['mystery']);
  });
});

describe('server boundaries', () => {
  const report = analyse(sourcesUnder(SRC));
  const edges = [...report.edges].map(([from, to]) => `${from} -> ${[...to].sort().join(', ')}`).sort();
  // What the check found, for the record (CI logs show it).
  console.info(
    `boundaries: ${report.deepImports.length} deep imports, ${report.cycles.length} cycles between domains, ` +
      `${report.fileCycles.length} cycles between files, ` +
      `${report.foreignTables.length} reads of another domain's tables; ${edges.join('; ')}`,
  );

  it('enters every domain through its index.ts only', () => {
    expect(report.deepImports).toEqual([]);
  });

  it('keeps the kernel free of domains', () => {
    expect(report.kernelImports).toEqual([]);
  });

  it('has no cycle between domains, every import going down the order', () => {
    expect(report.cycles).toEqual([]);
    expect(report.upwardImports).toEqual([]);
  });

  it('has no cycle between files, inside a domain or the kernel (compute/ too)', () => {
    expect(report.fileCycles).toEqual([]);
  });

  it('gives every table one owner, and leaves its tables to it', () => {
    expect(report.unownedTables).toEqual([]);
    expect(report.foreignTables).toEqual([]);
  });

  it('defines each table in db/schema/<its owner>/', () => {
    const sources = sourcesUnder(SRC);
    const folders = tableFoldersOf(sources);
    expect(folders.size).toBe(tablesOf(sources).size);
    const misplaced = [...folders]
      .filter(([name, folder]) => TABLE_OWNERS[name] !== folder)
      .map(([name, folder]) => `${name} is in db/schema/${folder}/ and belongs to ${TABLE_OWNERS[name]}`);
    expect(misplaced).toEqual([]);
  });

  it('knows every domain folder', () => {
    expect(readdirSync(join(SRC, 'domains')).sort()).toEqual([...DOMAINS].sort());
  });

  it("lists each domain's tables by the names db/schema exports them by, each table once", () => {
    const listed = DOMAIN_MODULES.flatMap((domain) =>
      Object.entries(domain.tables).map(([name, table]) => ({
        name,
        same: (schema as Record<string, unknown>)[name] === table,
      })),
    );
    expect(listed.filter((t) => !t.same)).toEqual([]);
    expect(new Set(listed.map((t) => t.name)).size).toBe(listed.length);
  });
});
