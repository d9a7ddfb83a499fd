import type { Deps } from '../../../deps.js';
import type { App } from '../../../http/app-types.js';
import { z } from '../../../http/zod.js';
import { installCommands } from './install-commands.js';
import { interpreterSite } from './interpreter-site.js';
import { clientSdist } from './sdist.js';

const tags = ['client'];

export const CLIENT_PACKAGE_PATH = '/api/v2/client/cumulus.tar.gz';

const installSchema = z.object({
  server_url: z.string().describe('The address clients sign in to (`cumulus login --server`).'),
  package_url: z.string().describe('The Python client of this server, for `pip install`.'),
  client_version: z.string(),
  python: z
    .object({
      path: z.string().describe("The interpreter this server's clusters run (CUMULUS_PYTHON)."),
      version: z.string(),
      distributed: z.string().nullable().describe('Its Dask `distributed` version.'),
      virtualenv: z
        .boolean()
        .describe(
          "A virtual environment's interpreter: the install commands make the client's environment read its packages.",
        ),
    })
    .nullable()
    .describe('Null when the interpreter cannot be read.'),
  install_commands: z
    .string()
    .describe(
      "The terminal commands (bash) that make an environment seeing the clusters' interpreter's packages and install this client into it.",
    ),
});

/**
 * What Get Started tells a user to type: where this server is, where its Python client is, and
 * which interpreter clusters run (a client environment made from it has the same Python and Dask,
 * which package sync needs).
 */
export function registerClientRoutes(app: App, { config, backends }: Deps): void {
  app.get(
    '/api/v2/client/install',
    { config: { auth: 'user' }, schema: { tags, response: { 200: installSchema } } },
    async () => {
      const [sdist, interpreter, site] = await Promise.all([
        clientSdist(),
        (async () => (await backends.standard().builder?.interpreter()) ?? null)().catch(() => null),
        interpreterSite(config.python).catch(() => null),
      ]);
      const packageUrl = `${config.publicUrl}${CLIENT_PACKAGE_PATH}`;
      const readable = interpreter && site;
      return {
        server_url: config.publicUrl,
        package_url: packageUrl,
        client_version: sdist.version,
        python: readable
          ? {
              path: config.python,
              version: interpreter.version,
              distributed: interpreter.packages.get('distributed') ?? null,
              virtualenv: site.virtualenv,
            }
          : null,
        install_commands: installCommands(readable ? config.python : null, site, packageUrl),
      };
    },
  );

  app.get(
    CLIENT_PACKAGE_PATH,
    {
      config: { auth: 'none', csrf: false },
      schema: {
        tags,
        description:
          'The Python client as a source distribution (gzip tar): `pip install --no-build-isolation <this URL>`.',
      },
    },
    async (_request, reply) => {
      const sdist = await clientSdist();
      return reply
        .type('application/gzip')
        .header('content-disposition', `attachment; filename="${sdist.fileName}"`)
        .send(sdist.bytes);
    },
  );
}
