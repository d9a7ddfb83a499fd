import { execFileSync } from 'node:child_process';
import path from 'node:path';

/**
 * Cloud Storage's JSON API (v1) as Google's own generated client in the Google Cloud SDK defines
 * it (`lib/googlecloudsdk/generated_clients/apis/storage/v1`, read by storage-defs.py): each
 * method's verb, path template, query parameters and request message, and every message's fields
 * and their types. The GCS rig routes by them and holds requests to them, as the compute rig holds
 * requests to `@google-cloud/compute`'s protos. (The discovery document gsutil's apitools carries,
 * `storage_sample/storage_v1.json`, is of 2016: no `labels` or `iamConfiguration` on a bucket; the
 * generated client is the SDK's current one.)
 */
export interface StorageField {
  variant: string;
  repeated: boolean;
  type?: string;
  enum?: string[];
}
interface StorageType {
  fields: Record<string, StorageField>;
  /** A map message (`labels`): the type of its values. */
  map: StorageField | null;
}
export interface StorageMethod {
  httpMethod: string;
  path: string;
  pathParams: string[];
  queryParams: string[];
  requestType: string;
  requestField: string;
  responseType: string;
}

const SDK = '/usr/lib/google-cloud-sdk/lib';
let loaded: { methods: Record<string, StorageMethod>; types: Record<string, StorageType> } | undefined;

/** Read once, when a test first calls Cloud Storage (a Python process importing the SDK's client). */
export function storageDefs() {
  loaded ??= JSON.parse(
    execFileSync('python3', [path.join(import.meta.dirname, 'storage-defs.py'), SDK], {
      encoding: 'utf8',
      maxBuffer: 16 * 2 ** 20,
    }),
  ) as typeof loaded & object;
  return loaded;
}

/** The method a JSON API request is (`objects.Insert`) and its path parameters, decoded. */
export function storageRouteOf(
  verb: string,
  rest: string,
): { name: string; method: StorageMethod; params: Record<string, string> } | null {
  const parts = rest.split('/');
  for (const [name, method] of Object.entries(storageDefs().methods)) {
    if (method.httpMethod !== verb) continue;
    const template = method.path.split('/');
    if (template.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const matched = template.every((t, i) => {
      const variable = /^\{(\w+)\}$/.exec(t)?.[1];
      if (!variable) return t === parts[i];
      if (!parts[i]) return false;
      params[variable] = decodeURIComponent(parts[i]!);
      return true;
    });
    if (matched) return { name, method, params };
  }
  return null;
}

/** Why a value is not of the field's type, in the words the compute rig uses (Google's), or null. */
export function invalidStorageValue(value: unknown, field: StorageField, at: string): string | null {
  if (field.repeated) {
    if (!Array.isArray(value)) return `Invalid value at '${at}', expected a list`;
    for (const [i, item] of value.entries()) {
      const problem = invalidStorageValue(item, { ...field, repeated: false }, `${at}[${i}]`);
      if (problem) return problem;
    }
    return null;
  }
  switch (field.variant) {
    case 'STRING':
    case 'BYTES':
    case 'DATETIME':
      return typeof value === 'string'
        ? null
        : `Invalid value at '${at}' (TYPE_STRING), ${JSON.stringify(value)}`;
    case 'BOOL':
      return typeof value === 'boolean'
        ? null
        : `Invalid value at '${at}' (TYPE_BOOL), ${JSON.stringify(value)}`;
    case 'INT64':
    case 'UINT64':
    case 'INT32':
    case 'UINT32':
      return Number.isInteger(value) || (typeof value === 'string' && /^-?\d+$/.test(value))
        ? null
        : `Invalid value at '${at}' (TYPE_${field.variant}), ${JSON.stringify(value)}`;
    case 'DOUBLE':
    case 'FLOAT':
      return typeof value === 'number'
        ? null
        : `Invalid value at '${at}' (TYPE_DOUBLE), ${JSON.stringify(value)}`;
    case 'ENUM':
      return typeof value === 'string' && field.enum?.includes(value)
        ? null
        : `Invalid value at '${at}' (TYPE_ENUM), ${JSON.stringify(value)}`;
    case 'MESSAGE':
      return invalidStorageMessage(value, field.type!, at);
    default:
      return null;
  }
}

/** Why a JSON body is not the message `typeName` (an unknown field, a wrong type), or null. */
export function invalidStorageMessage(value: unknown, typeName: string, at: string): string | null {
  const type = storageDefs().types[typeName];
  if (!type) throw new Error(`No message ${typeName} in Cloud Storage's definitions`);
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return `Invalid value at '${at}', expected an object`;
  for (const [key, item] of Object.entries(value)) {
    const field = type.map ?? type.fields[key];
    if (!field)
      return `Invalid JSON payload received. Unknown name ${JSON.stringify(key)} at '${at}': Cannot find field.`;
    const problem = invalidStorageValue(
      item,
      field,
      type.map ? `${at}[${JSON.stringify(key)}]` : `${at}.${key}`,
    );
    if (problem) return problem;
  }
  return null;
}

/** The query parameter's type: a field of the method's request message. */
export function storageQueryField(method: StorageMethod, name: string): StorageField | null {
  if (!method.queryParams.includes(name)) return null;
  return storageDefs().types[method.requestType]?.fields[name] ?? { variant: 'STRING', repeated: false };
}

/**
 * Cloud Storage's permissions are `storage.<collection>.<verb>`: valid where the JSON API has the
 * collection and the verb is one of its methods (`create` for `insert`, `update` for `patch`).
 */
export function validStoragePermission(permission: string): boolean {
  const [service, collection, verb, ...rest] = permission.split('.');
  if (service !== 'storage' || rest.length || !verb) return false;
  const verbs = Object.keys(storageDefs().methods)
    .filter((name) => name.startsWith(`${collection}.`))
    .map((name) => {
      const method = name.split('.')[1]!;
      return method === 'Insert'
        ? 'create'
        : method === 'Patch'
          ? 'update'
          : method[0]!.toLowerCase() + method.slice(1);
    });
  return verbs.includes(verb);
}
