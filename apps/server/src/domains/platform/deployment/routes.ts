import type { Deps } from '../../../deps.js';
import type { App } from '../../../http/app-types.js';
import { deploymentSchema } from './schemas.js';
import { describeDeployment } from './service.js';

export function registerDeploymentRoutes(app: App, { config }: Deps): void {
  // The same for everyone and for the server's lifetime: computed once.
  const deployment = describeDeployment(config);
  app.get(
    '/api/v2/deployment',
    {
      config: { auth: 'none' },
      schema: {
        tags: ['deployment'],
        description:
          'What this server offers, for the console’s public pages: where mail goes, the links it ' +
          'may show (support, docs, community) and the sign-in providers configured.',
        response: { 200: deploymentSchema },
      },
    },
    async () => deployment,
  );
}
