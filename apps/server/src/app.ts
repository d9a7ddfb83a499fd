import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import swagger from '@fastify/swagger';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { jsonSchemaTransform, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Deps } from './deps.js';
import type { App } from './http/app-types.js';
import { type ClusterTokenResolver, installAuth } from './http/auth.js';
import { serveConsole } from './http/console.js';
import { installCsrf } from './http/csrf.js';
import { installErrorHandlers } from './http/errors.js';
import { installRequestContext, requestIdOf } from './http/request-context.js';
import { RequestLog } from './http/request-log.js';
import { cachingSerializerCompiler } from './http/serializer.js';
import { z } from './http/zod.js';
import { registerAnalyticsRoutes } from './modules/analytics/routes.js';
import { registerProviderRoutes } from './modules/auth/providers.js';
import { registerAuthRoutes } from './modules/auth/routes.js';
import { registerBackendOptionRoutes } from './modules/backend-options/routes.js';
import { registerClientRoutes } from './modules/client/routes.js';
import { registerCloudRoutes } from './modules/cloud/routes.js';
import { registerClusterFacingRoutes } from './modules/cluster-facing/routes.js';
import { registerClusterRoutes } from './modules/clusters/routes.js';
import { registerDashboardProxy } from './modules/dashboards/proxy.js';
import { registerDeploymentRoutes } from './modules/deployment/routes.js';
import { registerDocsRoutes } from './modules/docs/routes.js';
import { registerFilestoreRoutes } from './modules/filestores/routes.js';
import { registerGroupRoutes } from './modules/groups/routes.js';
import { registerHealthRoutes } from './modules/health/routes.js';
import { registerHttpsCertificateRoutes } from './modules/https-certificates/routes.js';
import { registerInstanceSpecRoutes } from './modules/instance-specs/routes.js';
import { registerInstanceRoutes } from './modules/instances/routes.js';
import { registerInteractionRoutes } from './modules/interactions/routes.js';
import { registerInviteRoutes } from './modules/invites/routes.js';
import { registerJobRoutes } from './modules/jobs/routes.js';
import { registerLogRoutes } from './modules/logs/routes.js';
import { registerMetricRoutes } from './modules/metrics/routes.js';
import { registerOrganizationRoutes } from './modules/organizations/routes.js';
import { registerPricingRoutes } from './modules/pricing/routes.js';
import { registerVmTypeRoutes } from './modules/pricing/vm-type-routes.js';
import { registerSetupRoutes } from './modules/setup/routes.js';
import { registerPackageCacheRoutes } from './modules/software/cache-routes.js';
import { registerBuildFacingRoutes } from './modules/software/facing-routes.js';
import { registerPackageIndexRoutes } from './modules/software/index-routes.js';
import { registerSoftwareRoutes } from './modules/software/routes.js';
import { resolveSoftwareToken } from './modules/software/token.js';
import { registerStaffRoutes } from './modules/staff/routes.js';
import { registerSubscriptionRoutes } from './modules/subscriptions/routes.js';
import { registerTagRoutes } from './modules/tags/routes.js';
import { registerTokenRoutes } from './modules/tokens/routes.js';
import { registerUsageRoutes } from './modules/usage/routes.js';
import { registerUserRoutes } from './modules/users/routes.js';
import { registerWorkerRoutes } from './modules/workers/routes.js';
import { registerWorkspaceRoutes } from './modules/workspaces/routes.js';
import { VERSION } from './version.js';

export interface AppOptions {
  /** Where the server logs (lib/log.ts); none by default, as in tests. */
  logger?: FastifyBaseLogger;
  resolveClusterToken?: ClusterTokenResolver;
}

const MODULES: Array<(app: App, deps: Deps) => void> = [
  registerHealthRoutes,
  registerDeploymentRoutes,
  registerDocsRoutes,
  registerAuthRoutes,
  registerProviderRoutes,
  registerTokenRoutes,
  registerUserRoutes,
  registerInteractionRoutes,
  registerClientRoutes,
  registerStaffRoutes,
  registerOrganizationRoutes,
  registerWorkspaceRoutes,
  registerInviteRoutes,
  registerGroupRoutes,
  registerClusterRoutes,
  registerBackendOptionRoutes,
  registerHttpsCertificateRoutes,
  registerClusterFacingRoutes,
  registerDashboardProxy,
  registerWorkerRoutes,
  registerInstanceRoutes,
  registerInstanceSpecRoutes,
  registerLogRoutes,
  registerMetricRoutes,
  registerAnalyticsRoutes,
  registerSoftwareRoutes,
  registerPackageIndexRoutes,
  registerPackageCacheRoutes,
  registerBuildFacingRoutes,
  registerJobRoutes,
  registerFilestoreRoutes,
  registerUsageRoutes,
  registerPricingRoutes,
  registerSubscriptionRoutes,
  registerTagRoutes,
  registerVmTypeRoutes,
  registerCloudRoutes,
  registerSetupRoutes,
];

/** Builds the HTTP app without listening, so tests can `inject` into it. */
export async function buildApp(deps: Deps, options: AppOptions = {}): Promise<App> {
  const app = Fastify({
    loggerInstance: options.logger,
    logController: new RequestLog(deps.config.logFormat),
    genReqId: (request) => requestIdOf(request.headers),
    bodyLimit: 4 * 1024 * 1024,
    // A busy machine can take more than Fastify's 10 s default to load the plugins; that is no failure.
    pluginTimeout: 120_000,
    // Sealed sessions travel in paths (logs/cluster/{pk}/page/{encoded_session}); schemas bound each param.
    routerOptions: { maxParamLength: 4096 },
    trustProxy: false,
  }).withTypeProvider<ZodTypeProvider>();

  installRequestContext(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(cachingSerializerCompiler);
  installErrorHandlers(app);

  // The API speaks JSON (and forms, for the terminal sign-in); other bodies are 415s.
  app.removeContentTypeParser('text/plain');
  // An empty JSON body (what a bodiless POST from a fetch wrapper sends) reads as no body.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    parseJson(request, text, done);
  });
  await app.register(formbody, { bodyLimit: 64 * 1024 });
  await app.register(cookie);

  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: 'Cumulus API', version: VERSION, description: 'Control plane of Cumulus.' },
      components: {
        securitySchemes: {
          token: {
            type: 'apiKey',
            in: 'header',
            name: 'Authorization',
            description: '`Token <key>` or `ApiToken <token>`',
          },
        },
      },
    },
    transform: jsonSchemaTransform,
  });

  installCsrf(app, { secure: deps.config.publicUrl.startsWith('https://') });
  installAuth(app, {
    db: deps.db,
    changes: deps.changes,
    resolveClusterToken: options.resolveClusterToken,
    resolveSoftwareToken,
  });
  addDefaultErrorResponses(app);

  for (const register of MODULES) register(app, deps);

  app.get('/api/openapi.json', { config: { auth: 'none' }, schema: { hide: true } }, async () =>
    app.swagger(),
  );

  await serveConsole(app, deps.config.webDist);
  return app;
}

const errorBody = z.record(z.string(), z.unknown());

/** Every route may answer the error shapes; declaring them keeps the OpenAPI document honest. */
function addDefaultErrorResponses(app: App): void {
  app.addHook('onRoute', (route) => {
    const schema = route.schema as { response?: Record<string, unknown>; hide?: boolean } | undefined;
    if (!schema?.response) return;
    schema.response = { ...schema.response, '4XX': schema.response['4XX'] ?? errorBody, '5XX': errorBody };
  });
}
