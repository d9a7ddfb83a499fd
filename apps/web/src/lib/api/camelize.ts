// The wire speaks snake_case; the console speaks camelCase. Answers
// are converted here, once, and their types are derived from the generated ones.

type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : S;

/** `{ full_name: string; default_account: { avatar_url: ... } }` -> `{ fullName; defaultAccount: { avatarUrl } }`. */
export type Camelize<T> = T extends readonly (infer Item)[]
  ? Camelize<Item>[]
  : T extends object
    ? { [K in keyof T as K extends string ? CamelCase<K> : K]: Camelize<T[K]> }
    : T;

export function camelCase(key: string): string {
  const [head = '', ...rest] = key.split('_');
  return head + rest.map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join('');
}

export function snakeCase(key: string): string {
  return key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/**
 * Maps whose keys are the user's data, not field names (a cluster's tags, its environment
 * variables, Dask options): their name is converted, their contents are kept as sent.
 */
export const VERBATIM_KEYS = new Set([
  'tags',
  'environ',
  'env_vars',
  'worker_options',
  'scheduler_options',
  'dask_config',
  'local_versions',
  // Usage buckets: values by group key (a tag's value, a cluster type...).
  'values',
]);

function convertKeys(value: unknown, convert: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => convertKeys(item, convert));
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      convert(key),
      VERBATIM_KEYS.has(key) || VERBATIM_KEYS.has(snakeCase(key)) ? item : convertKeys(item, convert),
    ]),
  );
}

/** An answer from the wire, with every key camelCased (deeply). */
export function camelize<T>(value: T): Camelize<T> {
  return convertKeys(value, camelCase) as Camelize<T>;
}

/**
 * A request body from the console's camelCase shape back to the wire's: name the wire type,
 * `toWire<WireBody>({ fullName })`. Only for bodies whose keys are field names, not free-form maps.
 */
export function toWire<Wire>(value: Camelize<Wire>): Wire {
  return convertKeys(value, snakeCase) as Wire;
}
