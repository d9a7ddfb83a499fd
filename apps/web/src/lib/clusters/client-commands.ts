import { useClientInstallQuery } from '@/data/client/install-query';

// The terminal commands the console hands out, for THIS server: its address and its own Python
// client, in an environment that sees the packages (Dask) of the interpreter its clusters run.

/** `--server` always: the client's default (port 8000 on this machine) is rarely this server. */
export const loginCommand = (serverUrl: string) => `cumulus login --server ${serverUrl}`;

/** Until the server answers: its client from the page's origin, into an environment of any python3. */
const provisionalInstall = (origin: string) =>
  [
    'python3 -m venv --system-site-packages ~/.venvs/cumulus',
    'source ~/.venvs/cumulus/bin/activate',
    `pip install --no-build-isolation ${origin}/api/v2/client/cumulus.tar.gz`,
  ].join('\n');

/**
 * This server's install and login commands. The install commands are the server's own
 * (`client/install`): only it knows whether its interpreter is a virtual environment's, which
 * changes how a new environment sees its Dask.
 */
export function useClientCommands() {
  const install = useClientInstallQuery();
  const origin = window.location.origin;
  return {
    install: install.data?.installCommands ?? provisionalInstall(origin),
    login: loginCommand(install.data?.serverUrl ?? origin),
    python: install.data?.python ?? null,
    serverUrl: install.data?.serverUrl ?? origin,
    isPending: install.isPending,
  };
}
