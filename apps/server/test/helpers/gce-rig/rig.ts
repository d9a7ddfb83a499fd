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
import { requiredPermissions } from './required-permissions.js';
import { ResourceManager } from './resource-manager.js';
import { SERVER_METADATA_PREFIX, serverMetadata } from './server-metadata.js';
import { GcsRig } from './storage.js';
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
  /** The service account of the machine the server runs on (workload identity); null: it has none. */
  serverAccount: string | null;
  /** Cloud Storage in the project (the JSON API and V4 signed URLs), on the same server. */
  readonly storage: GcsRig;
  /** The project's number (its default Compute Engine account's). */
  readonly projectNumber = '424242424242';
  instances!: Instances;
  firewalls!: Firewalls;
  #server: Server | undefined;
  #url = '';

  constructor(options: { project?: string; operationDelayMs?: number; subnetPrefix?: string } = {}) {
    this.project = options.project ?? 'cumulus-rig';
    this.tokens = new TokenEndpoint(this.project, () => `${this.url}/token`);
    this.serverAccount = `cumulus-server@${this.project}.iam.gserviceaccount.com`;
    this.storage = new GcsRig(this);
    this.options = {
      operationDelayMs: options.operationDelayMs ?? 300,
      subnetPrefix: options.subnetPrefix ?? '127.42.0',
    };
  }
  readonly options: { operationDelayMs: number; subnetPrefix: string };

  get url(): string {
    return this.#url;
  }

  /** The server's settings that send its Google calls here (token endpoint, Compute, Storage, Resource Manager). */
  env(): Record<string, string> {
    return {
      CUMULUS_GCP_TOKEN_URL: `${this.#url}/token`,
      CUMULUS_GCP_COMPUTE_URL: this.#url,
      CUMULUS_GCP_STORAGE_URL: this.#url,
      CUMULUS_GCP_RESOURCE_MANAGER_URL: this.#url,
      CUMULUS_GCP_METADATA_URL: `${this.#url}${SERVER_METADATA_PREFIX}`,
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
    // Cloud Storage's paths (its bodies are bytes, not JSON text).
    if (await this.storage.handle(request, response, url)) return;
    const raw = await new Promise<string>((resolve) => {
      let text = '';
      request
        .setEncoding('utf8')
        .on('data', (c: string) => (text += c))
        .on('end', () => resolve(text));
    });
    const fromMetadata = serverMetadata(url.pathname, request.headers, this);
    if (fromMetadata) {
      const [status, body, type] = fromMetadata;
      response.writeHead(status, { 'content-type': type, 'metadata-flavor': 'Google' }).end(body);
      return;
    }
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
      const caller = this.tokens.tokens.get(token!)!.email;
      const project = params.project ?? this.project;
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
      // Each call's permissions, as Google checks them before anything happens (the first one missing is named).
      const lacking = requiredPermissions(route.service, route.method, body).find(
        (permission) => project !== this.project || !this.resourceManager.holds(caller, project, permission),
      );
      if (lacking)
        throw new GceError(
          403,
          `Required '${lacking}' permission for '${resourceOf(url.pathname, project)}'`,
          'forbidden',
          'PERMISSION_DENIED',
        );
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

/** The resource a call is on, as Google names it in a refusal (`projects/p/zones/z/instances/i`). */
function resourceOf(pathname: string, project: string): string {
  const rest = pathname.split(`/projects/${project}/`)[1];
  return rest && !rest.startsWith('aggregated/') ? `projects/${project}/${rest}` : `projects/${project}`;
}
