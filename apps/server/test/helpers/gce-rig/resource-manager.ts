import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { badRequest, GceError } from './operations.js';
import { invalidMessage, ROUTES } from './protos.js';
import { validStoragePermission } from './storage-defs.js';

/**
 * Cloud Resource Manager's `projects.testIamPermissions`, as Google defines it: the IAM policy
 * mixin of `google.iam.v1.IAMPolicy` that google-gax ships (build/protos/iam_service.json) gives
 * the HTTP rule (`POST /v1/{resource=**}:testIamPermissions`, body `*`) and the request's and
 * answer's fields; Resource Manager v1 serves it for `projects/{project}`. The answer is the
 * subset of the asked permissions the caller holds (an empty subset is an empty answer, `{}`, as
 * proto3 JSON leaves an empty list out).
 *
 * Who holds what: a service account holds every valid permission in its own project (the project
 * of its email) unless a test withholds some (`withhold`), and nothing in another project.
 * A permission is valid when Compute Engine's protos have its collection and its verb is one of
 * that collection's methods (`create` for `Insert`) or one of IAM's own verbs (`use`...), and a
 * Cloud Storage one (`storage.objects.create`) when the JSON API has its collection and method
 * (storage-defs.ts): other services' permissions are refused as Google refuses an unknown one.
 */
type ProtoType = {
  fields?: Record<string, { type: string; rule?: string }>;
  methods?: Record<string, { requestType: string; responseType: string; options?: Record<string, unknown> }>;
};
// google-gax as @google-cloud/compute has it (its main is build/src/index.js).
const compute = createRequire(createRequire(import.meta.url).resolve('@google-cloud/compute/package.json'));
const file = path.join(path.dirname(compute.resolve('google-gax')), '../protos/iam_service.json');
type Root = {
  nested: { google: { nested: { iam: { nested: { v1: { nested: Record<string, ProtoType> } } } } } };
};
const iam = (JSON.parse(readFileSync(file, 'utf8')) as Root).nested.google.nested.iam.nested.v1.nested;
const method = iam.IAMPolicy!.methods!.TestIamPermissions!;
const template = String(method.options!['(google.api.http).post']);
const bodyRule = String(method.options!['(google.api.http).body']);
/** `/v1/{resource=**}:testIamPermissions` → a pattern whose group is `resource`. */
const literal = (text: string) => text.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&');
const [before, after] = template.split('{resource=**}') as [string, string];
const PATTERN = new RegExp(`^${literal(before)}(.+)${literal(after)}$`);
const request = iam[method.requestType]!;
/** The body is the request (`*`) without the path's `resource`. */
const BODY: ProtoType = {
  fields: Object.fromEntries(Object.entries(request.fields ?? {}).filter(([name]) => name !== 'resource')),
};

/**
 * IAM's verbs that are no API method: using a subnet, an external address, an image; changing a
 * network's firewall policy (what firewall rules need of their network).
 */
const IAM_VERBS = new Set(['use', 'useExternalIp', 'useReadOnly', 'updatePolicy']);
const lower = (name: string) => name[0]!.toLowerCase() + name.slice(1);
const COMPUTE_VERBS = new Map<string, Set<string>>();
for (const route of ROUTES) {
  const verbs = COMPUTE_VERBS.get(lower(route.service)) ?? new Set(IAM_VERBS);
  verbs.add(
    route.method === 'Insert' ? 'create' : route.method === 'AggregatedList' ? 'list' : lower(route.method),
  );
  COMPUTE_VERBS.set(lower(route.service), verbs);
}

export function validPermission(permission: string): boolean {
  if (permission.startsWith('storage.')) return validStoragePermission(permission);
  const [service, collection, verb, ...rest] = permission.split('.');
  return (
    service === 'compute' && rest.length === 0 && !!verb && !!COMPUTE_VERBS.get(collection ?? '')?.has(verb)
  );
}

export class ResourceManager {
  /** Permissions withheld, by service account email (`*`: from every account). */
  readonly #withheld = new Map<string, Set<string>>();
  /** Projects asked about, in order (what a permission check did). */
  readonly tested: string[] = [];

  /** Takes permissions away from one account, or from every account (no email). */
  withhold(permissions: string[], email = '*'): void {
    const set = this.#withheld.get(email) ?? new Set();
    for (const p of permissions) set.add(p);
    this.#withheld.set(email, set);
  }

  /**
   * Whether `email` holds `permission` in `project`: a service account in its own project (the
   * project's default Compute Engine account, `N-compute@developer.gserviceaccount.com`, in any
   * project of the rig's) unless withheld.
   */
  holds(email: string, project: string, permission: string): boolean {
    const own =
      email.split('@')[1] === `${project}.iam.gserviceaccount.com` ||
      email.endsWith('-compute@developer.gserviceaccount.com') ||
      email === `tester@${project}.iam.gserviceaccount.com`;
    if (!own) return false;
    return !this.#withheld.get('*')?.has(permission) && !this.#withheld.get(email)?.has(permission);
  }

  /** Gives every withheld permission back. */
  restore(): void {
    this.#withheld.clear();
  }

  matches(pathname: string): string | null {
    return PATTERN.exec(pathname)?.[1] ?? null;
  }

  /** The answer to `POST /v1/{resource}:testIamPermissions` for the caller `email`. */
  testIamPermissions(resource: string, email: string, raw: string): Record<string, unknown> {
    const project = /^projects\/([^/]+)$/.exec(resource)?.[1];
    if (!project) throw new GceError(404, `Resource '${resource}' was not found`, 'notFound', 'NOT_FOUND');
    let body: unknown;
    try {
      body = raw ? JSON.parse(raw) : {};
    } catch {
      throw badRequest(`Invalid JSON payload received. Unexpected token.\n${raw.slice(0, 40)}`, 'parseError');
    }
    const problem = invalidMessage(body, BODY as Parameters<typeof invalidMessage>[1], '');
    if (problem) throw badRequest(problem.replace(" at ''", '').replace("at '.", "at '"));
    if (bodyRule !== '*') throw new Error(`the rig reads a body of "*", the protos say ${bodyRule}`);
    const asked = ((body as { permissions?: string[] }).permissions ?? []) as string[];
    for (const p of asked)
      if (!validPermission(p))
        throw badRequest(`Permission ${p} is not valid for this resource.`, 'badRequest');
    this.tested.push(project);
    if (email.split('@')[1] !== `${project}.iam.gserviceaccount.com`) return {};
    const withheld = new Set([...(this.#withheld.get('*') ?? []), ...(this.#withheld.get(email) ?? [])]);
    const held = asked.filter((p) => !withheld.has(p));
    return held.length ? { permissions: held } : {};
  }
}
