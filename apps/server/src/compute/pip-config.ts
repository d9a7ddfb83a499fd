import { spawn } from 'node:child_process';

/** pip's configuration sections that apply to `pip install`. */
const SECTIONS = new Set(['global', 'install']);

/**
 * The server's own pip configuration (its files: /etc/pip.conf, ~/.config/pip/pip.conf...) as the
 * `PIP_*` variables pip reads the same settings from: a build that runs as a uid of its own, with
 * a home of its own, finds none of the server's files, yet must use the same index, find-links and
 * constraints. Settings given by variables already are left to them. Empty when pip cannot say.
 */
export async function pipConfigVariables(
  python: string,
  env: Record<string, string | undefined>,
): Promise<Record<string, string>> {
  const listed = await new Promise<string>((resolve) => {
    const child = spawn(python, ['-m', 'pip', 'config', 'list'], {
      env,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.once('error', () => resolve(''));
    child.once('close', (code) => resolve(code === 0 ? out : ''));
  });
  return parsePipConfigList(listed);
}

/** `global.find-links='/opt/wheels'` lines (what `pip config list` prints) as `PIP_FIND_LINKS`. */
export function parsePipConfigList(listed: string): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const line of listed.split('\n')) {
    const match = /^([^.\s]+)\.([a-z0-9-_]+)=(.*)$/i.exec(line.trim());
    if (!match || !SECTIONS.has(match[1]!)) continue;
    const value = unquote(match[3]!);
    const name = `PIP_${match[2]!.toUpperCase().replace(/-/g, '_')}`;
    // An install-only setting wins over the same global one, as in pip.
    if (match[1] === 'install' || !(name in variables)) variables[name] = value;
  }
  return variables;
}

/** pip prints values as Python literals: '...' (or "..." when the value holds a quote). */
function unquote(value: string): string {
  const quoted = /^(['"])(.*)\1$/s.exec(value);
  // A list written over several lines is printed with \n: pip's variables take it space-separated.
  return quoted ? quoted[2]!.replace(/\\n/g, ' ').replace(/\\(['"\\])/g, '$1') : value;
}
