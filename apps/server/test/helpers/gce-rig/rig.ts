import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Links } from './catalog.js';
import { Firewalls } from './firewalls.js';
import { handlers } from './handlers.js';
import { Instances } from './instances.js';
import { badRequest, GceError, Operations } from './operations.js';
import {
  invalidMessage,
  invalidValue,
  isSystemParameter,
  messageType,
  queryFieldsOf,
  routeOf,
} from './protos.js';
import { ResourceManager } from './resource-manager.js';
import { TokenEndpoint } from './token-endpoint.js';

const UNAUTHENTICATED = new GceError(
  401,
  'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
  'authError',
  'UNAUTHENTICATED',
);

/**
 * A stand-in for one Google Cloud project's Compute Engine API (REST, `/compute/v1/...`) and
 * Google's token endpoint (`/token`), on 127.0.0.1. Routes and fields come from the protos of
 * `@google-cloud/compute` (protos.ts): a path Compute Engine does not have is a 404, a method it
 * has but the rig does not play a 501, an unknown field or a wrong type a 400 in Google's words.
 * Every call is recorded in `calls` as `Service.Method`.
 */
export class GceRig {
  readonly project: string;
  readonly calls: string[] = [];
  readonly tokens: TokenEndpoint;
  /** Cloud Resource Manager's `projects.testIamPermissions` (and the permissions tests withhold). */
  readonly resourceManager = new ResourceManager();
  instances!: Instances;
  firewalls!: Firewalls;
  #server: Server | undefined;
  #url = '';

  constructor(options: { project?: string; operationDelayMs?: number; subnetPrefix?: string } = {}) {
    this.project = options.project ?? 'cumulus-rig';
    this.tokens = new TokenEndpoint(this.project, () => `${this.url}/token`);
    this.options = {
      operationDelayMs: options.operationDelayMs ?? 300,
      subnetPrefix: options.subnetPrefix ?? '127.42.0',
    };
  }
  readonly options: { operationDelayMs: number; subnetPrefix: string };

  get url(): string {
    return this.#url;
  }

  /** The server's settings that send its Google calls here (token endpoint, Compute, Resource Manager). */
  env(): Record<string, string> {
    return {
      CUMULUS_GCP_TOKEN_URL: `${this.#url}/token`,
      CUMULUS_GCP_COMPUTE_URL: this.#url,
      CUMULUS_GCP_RESOURCE_MANAGER_URL: this.#url,
    };
  }

  async start(): Promise<this> {
    const server = createServer((request, response) => {
      this.handle(request, response).catch((err) =>
        this.send(response, 500, { error: { code: 500, message: String(err) } }),
      );
    });
    // Google keeps idle connections open long: clients reusing one must not meet a socket just closed.
    server.keepAliveTimeout = 120_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    this.#url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    this.#server = server;
    const links = new Links(this.#url, this.project);
    const operations = new Operations(
      links,
      `tester@${this.project}.iam.gserviceaccount.com`,
      this.options.operationDelayMs,
    );
    this.instances = new Instances(links, operations, this.options.subnetPrefix);
    this.firewalls = new Firewalls(links, operations);
    this.#table = handlers(links, this.instances, this.firewalls, operations);
    return this;
  }

  #table: ReturnType<typeof handlers> = {};

  async stop(): Promise<void> {
    this.#server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.#url);
    const raw = await new Promise<string>((resolve) => {
      let text = '';
      request
        .setEncoding('utf8')
        .on('data', (c: string) => (text += c))
        .on('end', () => resolve(text));
    });
    if (url.pathname === '/token' && request.method === 'POST') {
      const [status, body] = this.tokens.exchange(new URLSearchParams(raw));
      return this.send(response, status, body);
    }
    const resource = request.method === 'POST' ? this.resourceManager.matches(url.pathname) : null;
    if (resource !== null) {
      this.calls.push('Projects.TestIamPermissions');
      const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
      try {
        if (!this.tokens.valid(token)) throw UNAUTHENTICATED;
        const email = this.tokens.tokens.get(token!)!.email;
        return this.send(response, 200, this.resourceManager.testIamPermissions(resource, email, raw));
      } catch (err) {
        if (!(err instanceof GceError)) throw err;
        return this.send(response, err.code, err.body());
      }
    }
    const found = routeOf(request.method ?? 'GET', url.pathname);
    if (!found)
      return this.send(response, 404, {
        error: {
          code: 404,
          message: `The requested URL ${url.pathname} was not found on this server.`,
          status: 'NOT_FOUND',
        },
      });
    const { route, params } = found;
    const name = `${route.service}.${route.method}`;
    this.calls.push(name);
    try {
      const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
      if (!this.tokens.valid(token)) throw UNAUTHENTICATED;
      if (params.project !== this.project)
        throw new GceError(
          403,
          `Required 'compute.${route.service.toLowerCase()}.${route.method.toLowerCase()}' permission for 'projects/${params.project}'`,
          'forbidden',
          'PERMISSION_DENIED',
        );
      const query = this.queryOf(route, url.searchParams);
      let body: Record<string, unknown> | undefined;
      if (route.bodyField) {
        try {
          body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
        } catch {
          throw badRequest(
            `Invalid JSON payload received. Unexpected token.\n${raw.slice(0, 40)}`,
            'parseError',
          );
        }
        const bodyType = messageType(route.requestType).fields![route.bodyField]!.type;
        const snake = route.bodyField.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
        const problem = invalidMessage(body, messageType(bodyType), snake);
        if (problem) throw badRequest(problem);
      }
      const handler = this.#table[name];
      if (!handler)
        throw new GceError(
          501,
          `The GCE rig does not play ${name} (${route.verb} ${route.template})`,
          'notImplemented',
          'UNIMPLEMENTED',
        );
      this.send(response, 200, await handler(params, query, body));
    } catch (err) {
      if (!(err instanceof GceError)) throw err;
      this.send(response, err.code, err.body());
    }
  }

  /** The query's parameters, each a field of the request (or a system parameter), of the right type. */
  private queryOf(
    route: Parameters<typeof queryFieldsOf>[0],
    search: URLSearchParams,
  ): Record<string, string> {
    const fields = queryFieldsOf(route);
    const query: Record<string, string> = {};
    for (const [key, value] of search) {
      if (isSystemParameter(key)) continue;
      const field = fields[key];
      if (!field)
        throw badRequest(
          `Invalid JSON payload received. Unknown name ${JSON.stringify(key)}: Cannot bind query parameter. Field '${key}' could not be found in request message.`,
        );
      // Google's query binding reads booleans case-insensitively (gcloud sends `True`).
      const flag = value.toLowerCase();
      const typed = field.type === 'bool' && (flag === 'true' || flag === 'false') ? flag === 'true' : value;
      const problem = invalidValue(typed, field, key);
      if (problem) throw badRequest(problem);
      query[key] = value;
    }
    return query;
  }

  private send(response: ServerResponse, status: number, body: unknown): void {
    response
      .writeHead(status, { 'content-type': 'application/json; charset=UTF-8' })
      .end(JSON.stringify(body));
  }
}
