import { normaliseProject } from './builder.js';

/**
 * Whether the interpreter's own packages (PEP 503 name to version) already meet a requirement
 * line such as `dask==2024.1.0`, `numpy~=1.26` or `pandas>=2.1.0,<2.2`. Only plain release
 * versions are compared; anything else (a bare name, extras, markers, URLs, pre-releases) answers
 * false, and pip decides.
 */
export function metByInterpreter(requirement: string, packages: ReadonlyMap<string, string>): boolean {
  const match = /^([A-Za-z0-9][A-Za-z0-9._-]*)((?:[=~!<>]=?[^,;]+,?)*)$/.exec(
    requirement.replace(/\s+/g, ''),
  );
  if (!match) return false;
  const installed = packages.get(normaliseProject(match[1]!));
  if (installed === undefined) return false;
  const clauses = match[2]!
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
  // A bare name is left to pip, as its user wrote it (a package sync pins every requirement).
  return clauses.length > 0 && clauses.every((clause) => meets(installed, clause));
}

function meets(installed: string, clause: string): boolean {
  const [, op, wanted] = /^(==|~=|!=|>=|<=|>|<)(.+)$/.exec(clause) ?? [];
  if (!op || !wanted) return false;
  if (op === '==' && !wanted.endsWith('.*')) return installed === wanted;
  const have = release(installed);
  if (op === '==') return have !== null && installed.startsWith(wanted.slice(0, -1));
  const want = release(wanted);
  if (!have || !want) return false;
  const order = compare(have, want);
  switch (op) {
    case '>=':
      return order >= 0;
    case '<=':
      return order <= 0;
    case '>':
      return order > 0;
    case '<':
      return order < 0;
    case '!=':
      return order !== 0;
    default: {
      // ~=X.Y(.Z): >= X.Y(.Z) and the same release up to the last but one part.
      const prefix = want.slice(0, -1);
      return want.length > 1 && order >= 0 && prefix.every((n, i) => have[i] === n);
    }
  }
}

/** The release numbers of a final version (a local `+...` part ignored); null for anything else. */
function release(version: string): number[] | null {
  const plain = version.split('+')[0]!;
  return /^\d+(\.\d+)*$/.test(plain) ? plain.split('.').map(Number) : null;
}

function compare(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
