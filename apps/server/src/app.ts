import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { jsonSchemaTransform, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Deps } from './deps.js';
import { registerJobRoutes } from './domains/batch/routes.js';
import { registerPricingRoutes } from './domains/billing/pricing/routes.js';
import { registerVmTypeRoutes } from './domains/billing/pricing/vm-type-routes.js';
import { registerSubscriptionRoutes } from './domains/billing/subscriptions/routes.js';
import { registerUsageRoutes } from './domains/billing/usage/routes.js';
import { registerCloudRoutes } from './domains/cloud/routes.js';
import { registerSetupRoutes } from './domains/cloud/setup/routes.js';
import { registerAnalyticsRoutes } from './domains/clusters/analytics/routes.js';
import { registerBackendOptionRoutes } from './domains/clusters/backend-options/routes.js';
import { registerClusterFacingRoutes } from './domains/clusters/cluster-facing/routes.js';
import { registerDashboardProxy } from './domains/clusters/dashboards/proxy.js';
import { registerFilestoreRoutes } from './domains/clusters/filestores/routes.js';
import { registerHttpsCertificateRoutes } from './domains/clusters/https-certificates/routes.js';
import { registerInstanceSpecRoutes } from './domains/clusters/instance-specs/routes.js';
import { registerInstanceRoutes } from './domains/clusters/instances/routes.js';
import { registerLogRoutes } from './domains/clusters/logs/routes.js';
import { registerMetricRoutes } from './domains/clusters/metrics/routes.js';
import { registerClusterRoutes } from './domains/clusters/routes.js';
import { registerTagRoutes } from './domains/clusters/tags/routes.js';
import { registerWorkerRoutes } from './domains/clusters/workers/routes.js';
import { registerProviderRoutes } from './domains/identity/auth/providers.js';
import { registerAuthRoutes } from './domains/identity/auth/routes.js';
import { registerGroupRoutes } from './domains/identity/groups/routes.js';
import { registerInteractionRoutes } from './domains/identity/interactions/routes.js';
import { registerInviteRoutes } from './domains/identity/invites/routes.js';
import { registerOrganizationRoutes } from './domains/identity/organizations/routes.js';
import { registerTokenRoutes } from './domains/identity/tokens/routes.js';
import { registerUserRoutes } from './domains/identity/users/routes.js';
import { registerWorkspaceRoutes } from './domains/identity/workspaces/routes.js';
import { registerClientRoutes } from './domains/platform/client/routes.js';
import { registerDeploymentRoutes } from './domains/platform/deployment/routes.js';
import { registerDocsRoutes } from './domains/platform/docs/routes.js';
import { registerHealthRoutes } from './domains/platform/health/routes.js';
import { registerPackageCacheRoutes } from './domains/software/cache-routes.js';
import { registerBuildFacingRoutes } from './domains/software/facing-routes.js';
import { registerPackageIndexRoutes } from './domains/software/index-routes.js';
import { registerSoftwareRoutes } from './domains/software/routes.js';
import { resolveSoftwareToken } from './domains/software/token.js';
import { registerStaffRoutes } from './domains/staff/routes.js';
import type { App } from './http/app-types.js';
import { type ClusterTokenResolver, installAuth } from './http/auth.js';
import { installCsrf } from './http/csrf.js';
import { installErrorHandlers } from './http/errors.js';
import { RequestLog } from './http/request-log.js';
import { cachingSerializerCompiler } from './http/serializer.js';
import { z } from './http/zod.js';
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
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
    },
    bodyLimit: 4 * 1024 * 1024,
    // A busy machine can take more than Fastify's 10 s default to load the plugins; that is no failure.
    pluginTimeout: 120_000,
    // Sealed sessions travel in paths (logs/cluster/{pk}/page/{encoded_session}); schemas bound each param.
    routerOptions: { maxParamLength: 4096 },
    trustProxy: false,
  }).withTypeProvider<ZodTypeProvider>();

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

/** The built console on the same origin, with the single-page fallback; API paths stay JSON. */
async function serveConsole(app: App, webDist: string): Promise<void> {
  const index = path.join(webDist, 'index.html');
  const hasConsole = existsSync(index);
  if (hasConsole) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      setHeaders: (res, file) => {
        res.setHeader(
          'cache-control',
          file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const isApi =
      request.url.startsWith('/api/') || request.url === '/api' || request.url.startsWith('/users/');
    if (!isApi && hasConsole && (request.method === 'GET' || request.method === 'HEAD')) {
      return reply.header('cache-control', 'no-cache').type('text/html').sendFile('index.html');
    }
    return reply.code(404).send({ detail: 'Not found.', code: 'NOT_FOUND' });
  });
}
