import type { InterpreterSite } from './interpreter-site.js';

/** Where the commands put the client's environment. */
export const CLIENT_ENV = '~/.venvs/cumulus';

/** A word for bash, quoted only when it must be. */
const shellWord = (word: string) =>
  /^[\w@%+=:,./~-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;

/**
 * The commands Get Started and the Dashboard hand out: an environment from the interpreter
 * clusters run, seeing its packages (Dask among them, so Python and Dask match the clusters', which
 * package sync needs), and this server's client installed into it from the server.
 *
 * A plain interpreter lends its packages through `--system-site-packages`. A virtual environment's
 * cannot (the new environment's base is the base interpreter): a `.pth` file makes the new
 * environment read the same site directories, in the same order, instead.
 */
export function installCommands(
  python: string | null,
  site: InterpreterSite | null,
  packageUrl: string,
): string {
  const interpreter = shellWord(python ?? 'python3');
  const install = [
    `source ${CLIENT_ENV}/bin/activate`,
    `pip install --no-build-isolation ${shellWord(packageUrl)}`,
  ];
  if (!site?.virtualenv)
    return [`${interpreter} -m venv --system-site-packages ${CLIENT_ENV}`, ...install].join('\n');
  const addDirs = site.siteDirs.map((dir) => `site.addsitedir(${JSON.stringify(dir)})`).join('; ');
  return [
    `${interpreter} -m venv ${CLIENT_ENV}`,
    `echo ${shellWord(`import site; ${addDirs}`)} > ${CLIENT_ENV}/${shellWord(site.purelib)}/cumulus-python.pth`,
    ...install,
  ].join('\n');
}
