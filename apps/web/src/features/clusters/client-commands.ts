import { type ClientInstall, useClientInstallQuery } from '@/data/client/install-query';

// The terminal commands the console hands out, for THIS server: its address and its own Python
// client, in an environment made from the interpreter its clusters run.

/** Where the commands put the client's environment. */
export const CLIENT_ENV = '~/.venvs/cumulus';

/**
 * An environment from the clusters' interpreter (so Python and Dask match theirs, which package
 * sync needs) that also sees its Dask, and the client installed into it from this server.
 */
export function installCommands(install: Pick<ClientInstall, 'packageUrl' | 'python'>): string {
  const python = install.python?.path ?? 'python3';
  return [
    `${python} -m venv --system-site-packages ${CLIENT_ENV}`,
    `source ${CLIENT_ENV}/bin/activate`,
    `pip install --no-build-isolation ${install.packageUrl}`,
  ].join('\n');
}

/** `--server` always: the client's default (port 8000 on this machine) is rarely this server. */
export const loginCommand = (serverUrl: string) => `cumulus login --server ${serverUrl}`;

/** This server's install and login commands; until its facts arrive, built from the page's origin. */
export function useClientCommands() {
  const install = useClientInstallQuery();
  const origin = window.location.origin;
  const facts = install.data ?? {
    serverUrl: origin,
    packageUrl: `${origin}/api/v2/client/cumulus.tar.gz`,
    python: null,
    clientVersion: '',
  };
  return {
    install: installCommands(facts),
    login: loginCommand(facts.serverUrl),
    python: facts.python,
    serverUrl: facts.serverUrl,
    isPending: install.isPending,
  };
}
