import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import swagger from '@fastify/swagger';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { jsonSchemaTransform, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import * as clusters from './domains/clusters/index.js';
import * as identity from './domains/identity/index.js';
import * as software from './domains/software/index.js';
import { installAccess } from './http/access.js';
import type { App } from './http/app-types.js';
import { type ClusterTokenResolver, installAuth } from './http/auth.js';
import { serveConsole } from './http/console.js';
import { installCsrf } from './http/csrf.js';
import { installErrorHandlers } from './http/errors.js';
import { installRequestContext, requestIdOf } from './http/request-context.js';
import { RequestLog } from './http/request-log.js';
import { installSecurityHeaders } from './http/security-headers.js';
import { cachingSerializerCompiler } from './http/serializer.js';
import { z } from './http/zod.js';
import { type AppDeps, DOMAIN_MODULES } from './modules.js';
import { VERSION } from './version.js';

export interface AppOptions {
  /** Where the server logs (lib/log.ts); none by default, as in tests. */
  logger?: FastifyBaseLogger;
  resolveClusterToken?: ClusterTokenResolver;
}

export type { AppDeps };

/** Builds the HTTP app without listening, so tests can `inject` into it. */
export async function buildApp(deps: AppDeps, options: AppOptions = {}): Promise<App> {
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
  installSecurityHeaders(app, deps.config.webDist);
  app.addHook('onRequest', clusters.proxyOriginGuard(deps.config));

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
    machineDb: deps.agentDb,
    authenticator: new identity.Authenticator(deps.db, deps.changes),
    resolveClusterToken: options.resolveClusterToken ?? clusters.clusterTokenResolver(deps.changes),
    resolveSoftwareToken: software.resolveSoftwareToken,
  });
  // The one pre-handler that resolves what each route's config says it needs into request.access.
  installAccess(
    app,
    DOMAIN_MODULES.flatMap((domain) => domain.accessResolvers(deps)),
  );
  addDefaultErrorResponses(app);

  // Every domain's routes, in the order of DOMAIN_MODULES: the order the API document lists them.
  for (const domain of DOMAIN_MODULES) for (const register of domain.routes) register(app, deps);

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
