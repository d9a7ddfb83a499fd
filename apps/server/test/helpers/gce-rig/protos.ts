import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * Compute Engine's own definitions, as `@google-cloud/compute` ships them (build/protos/protos.json):
 * every method's HTTP rule and every message's fields. The rig routes by them and holds requests to
 * them, so a field or a path the real API does not have is refused here too.
 */
interface ProtoField {
  type: string;
  rule?: 'repeated';
  keyType?: string;
}
interface ProtoType {
  fields?: Record<string, ProtoField>;
  values?: Record<string, number>;
  nested?: Record<string, ProtoType>;
  methods?: Record<string, ProtoMethod>;
}
interface ProtoMethod {
  requestType: string;
  responseType: string;
  options?: Record<string, unknown>;
}

const require = createRequire(import.meta.url);
const file = path.join(
  path.dirname(require.resolve('@google-cloud/compute/package.json')),
  'build/protos/protos.json',
);
type Root = {
  nested: { google: { nested: { cloud: { nested: { compute: { nested: { v1: ProtoType } } } } } } };
};
const v1 = (JSON.parse(readFileSync(file, 'utf8')) as Root).nested.google.nested.cloud.nested.compute.nested
  .v1.nested as Record<string, ProtoType>;

/** One REST method: `Instances.Insert` and what its HTTP rule says. */
export interface Route {
  service: string;
  method: string;
  verb: string;
  template: string;
  pattern: RegExp;
  /** Path variables as the request message names them (`resource_id` → `resourceId`). */
  pathFields: string[];
  requestType: string;
  /** The request field the body is (`instanceResource`), or null without a body. */
  bodyField: string | null;
}

const camel = (name: string) => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

function compile(service: string, method: string, m: ProtoMethod): Route | null {
  const options = m.options ?? {};
  for (const verb of ['get', 'post', 'put', 'patch', 'delete']) {
    const template = options[`(google.api.http).${verb}`];
    if (typeof template !== 'string') continue;
    const pathFields: string[] = [];
    const source = template
      .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
      .replace(/\{([a-z_]+)\}/g, (_, name: string) => {
        pathFields.push(camel(name));
        return '([^/]+)';
      });
    const body = options['(google.api.http).body'];
    return {
      service,
      method,
      verb: verb.toUpperCase(),
      template,
      pattern: new RegExp(`^${source}$`),
      pathFields,
      requestType: m.requestType,
      bodyField: typeof body === 'string' ? camel(body) : null,
    };
  }
  return null;
}

export const ROUTES: Route[] = Object.entries(v1).flatMap(([service, type]) =>
  Object.entries(type.methods ?? {}).flatMap(([method, m]) => {
    const route = compile(service, method, m);
    return route ? [route] : [];
  }),
);

/** The route and path values of a request, or null when Compute Engine has no such call. */
export function routeOf(
  verb: string,
  pathname: string,
): { route: Route; params: Record<string, string> } | null {
  for (const route of ROUTES) {
    if (route.verb !== verb) continue;
    const match = route.pattern.exec(pathname);
    if (!match) continue;
    const params = Object.fromEntries(route.pathFields.map((f, i) => [f, decodeURIComponent(match[i + 1]!)]));
    return { route, params };
  }
  return null;
}

export function messageType(name: string): ProtoType {
  const type = v1[name];
  if (!type?.fields) throw new Error(`no message ${name} in compute v1`);
  return type;
}

/** Standard query parameters every Google API takes besides the request's own fields. */
const SYSTEM_PARAMETERS = new Set([
  'alt',
  '$alt',
  'prettyPrint',
  'fields',
  'key',
  'quotaUser',
  'userIp',
  '$.xgafv',
]);

/** The query fields a route's request takes (neither in the path nor the body). */
export function queryFieldsOf(route: Route): Record<string, ProtoField> {
  const fields = { ...messageType(route.requestType).fields };
  for (const f of [...route.pathFields, route.bodyField ?? '']) delete fields[f];
  return fields;
}

export function isSystemParameter(name: string): boolean {
  return SYSTEM_PARAMETERS.has(name);
}

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const SCALARS: Record<string, string> = {
  string: 'TYPE_STRING',
  bool: 'TYPE_BOOL',
  int32: 'TYPE_INT32',
  uint32: 'TYPE_UINT32',
  int64: 'TYPE_INT64',
  uint64: 'TYPE_UINT64',
  double: 'TYPE_DOUBLE',
  float: 'TYPE_FLOAT',
};

/**
 * Why a JSON value is not a `typeName` (Google's words: "Unknown name ... Cannot find field.",
 * "Invalid value at '...' (TYPE_BOOL)"), or null when it is. `owner` is the message the type is
 * nested in (an enum such as `Operation.Status`).
 */
export function invalidValue(
  value: unknown,
  field: ProtoField,
  at: string,
  owner?: ProtoType,
): string | null {
  if (field.rule === 'repeated') {
    if (!Array.isArray(value)) return `Invalid value at '${at}', expected a list`;
    for (const [i, item] of value.entries()) {
      const problem = invalidValue(item, { type: field.type }, `${at}[${i}]`, owner);
      if (problem) return problem;
    }
    return null;
  }
  if (field.keyType) {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return `Invalid value at '${at}', expected a map`;
    for (const [k, item] of Object.entries(value)) {
      const problem = invalidValue(item, { type: field.type }, `${at}[${JSON.stringify(k)}]`, owner);
      if (problem) return problem;
    }
    return null;
  }
  const scalar = SCALARS[field.type];
  if (scalar) {
    const ok =
      field.type === 'string'
        ? typeof value === 'string'
        : field.type === 'bool'
          ? typeof value === 'boolean'
          : field.type.endsWith('64')
            ? (typeof value === 'string' && /^-?\d+$/.test(value)) || Number.isInteger(value)
            : field.type === 'double' || field.type === 'float'
              ? typeof value === 'number'
              : Number.isInteger(value) || (typeof value === 'string' && /^-?\d+$/.test(value));
    return ok ? null : `Invalid value at '${at}' (${scalar}), ${JSON.stringify(value)}`;
  }
  const type = owner?.nested?.[field.type] ?? v1[field.type];
  if (!type) return null;
  if (type.values) {
    return typeof value === 'string' && value in type.values
      ? null
      : `Invalid value at '${at}' (type.googleapis.com/google.cloud.compute.v1.${field.type}), ${JSON.stringify(value)}`;
  }
  return invalidMessage(value, type, at);
}

export function invalidMessage(value: unknown, type: ProtoType, at: string): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return `Invalid value at '${at}', expected an object`;
  for (const [key, item] of Object.entries(value)) {
    const field = type.fields?.[key];
    if (!field)
      return `Invalid JSON payload received. Unknown name ${JSON.stringify(key)} at '${at}': Cannot find field.`;
    const problem = invalidValue(item, field, `${at}.${snake(key)}`, type);
    if (problem) return problem;
  }
  return null;
}
