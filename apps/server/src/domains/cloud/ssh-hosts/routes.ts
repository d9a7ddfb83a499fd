import type { Deps } from '../../../deps.js';
import type { App } from '../../../http/app-types.js';
import { registerMachineRoutes } from '../machine-routes.js';
import { sshHostAnswer, sshHostBody } from './schemas.js';
import * as hosts from './service.js';

/** A workspace's SSH hosts (the `ssh` backend): registered and removed by its admins, checked, shown with their health. */
export function registerSshHostRoutes(app: App, deps: Deps): void {
  registerMachineRoutes(app, deps, {
    path: '/api/v2/ssh-hosts',
    item: 'host',
    body: sshHostBody,
    answer: sshHostAnswer,
    describe: {
      list: "The workspace's SSH hosts with their health and what Cumulus runs there (no private key).",
      add: 'Registers an SSH host (admins) once it is reached as the account given with the pinned host key and has Python with Dask; the private key is sealed and never returned.',
      check: 'Checks an SSH host again now (admins) and answers it with its health.',
      remove: 'Forgets an SSH host (admins); refused while clusters run there.',
    },
    list: hosts.listHosts,
    add: hosts.registerHost,
    check: hosts.checkHostNow,
    remove: hosts.removeHost,
  });
}
