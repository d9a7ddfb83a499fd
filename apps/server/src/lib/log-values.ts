import { withoutCredentials } from './redact.js';

/**
 * What a log field may be written as: a plain JSON value (no cycle, no BigInt, no function, no
 * getter or toJSON left to run), bounded in depth, width and size, with secrets hidden. Whatever
 * a caller hands the logger (a Fastify reply, a socket, an error with causes, a hostile object),
 * this never throws: what cannot be read is written as a short note of why.
 */
export type Plain = null | boolean | number | string | Plain[] | { [key: string]: Plain };

export const LOG_LIMITS = {
  /** Nesting below a field's own value. */
  depth: 5,
  /** Keys of one object, items of one array. */
  width: 40,
  /** Characters of one string (a message, a stack, a value). */
  chars: 8_192,
  /** Characters of all the fields of one record, roughly. */
  record: 32_768,
};

/** Field names never written, whatever a caller passes: credentials and secrets. */
const SECRET_FIELD = /authorization|cookie|password|secret|token|api[_-]?key|^key$/i;

/** Whether a field name holds a credential; asked for every field of every line, so remembered. */
const secretNames = new Map<string, boolean>();
export function isSecret(key: string): boolean {
  let secret = secretNames.get(key);
  if (secret === undefined) {
    secret = SECRET_FIELD.test(key);
    if (secretNames.size < 1000) secretNames.set(key, secret);
  }
  return secret;
}

/** What is left to write of one record, shared by its fields. */
export class Budget {
  private readonly seen = new Set<object>();
  constructor(public left = LOG_LIMITS.record) {}

  /** Converts one field's value; see the file comment. */
  field(key: string, value: unknown): Plain {
    return this.convert(key, value, 0);
  }

  /** A string as written: URLs' credentials hidden, cut past `max` characters with a note of how many more there were. */
  text(raw: string, max = LOG_LIMITS.chars): string {
    const kept = cut(withoutCredentials(raw), max);
    this.left -= kept.length;
    return kept;
  }

  private convert(key: string, value: unknown, depth: number): Plain {
    if (isSecret(key)) return '[hidden]';
    try {
      return this.value(key, value, depth);
    } catch (err) {
      return `[unreadable: ${thrownText(err)}]`;
    }
  }

  private value(key: string, value: unknown, depth: number): Plain {
    switch (typeof value) {
      case 'string':
        return this.left <= 0 ? '[…]' : this.text(value);
      case 'number':
        return Number.isFinite(value) ? value : String(value);
      case 'boolean':
        return value;
      case 'bigint':
        return value.toString();
      case 'undefined':
        return null;
      case 'symbol':
        return value.toString();
      case 'function':
        return `[Function ${value.name || 'anonymous'}]`;
    }
    if (value === null) return null;
    const object = value as object;
    if (this.left <= 0) return '[…]';
    if (this.seen.has(object)) return '[Circular]';
    if (depth >= LOG_LIMITS.depth) return Array.isArray(object) ? '[Array]' : '[Object]';
    this.seen.add(object);
    try {
      return this.object(key, object, depth);
    } finally {
      this.seen.delete(object);
    }
  }

  private object(key: string, object: object, depth: number): Plain {
    if (object instanceof Error) return this.error(object, depth);
    const special = known(key, object);
    if (special !== undefined) return special;
    if (Array.isArray(object)) return this.items(key, object, depth);
    if (object instanceof Map) {
      const pairs = first(object, LOG_LIMITS.width).map(([k, v]): [string, unknown] => [String(k), v]);
      return this.entries(pairs, depth, object.size);
    }
    if (object instanceof Set) return this.items(key, first(object, LOG_LIMITS.width), depth, object.size);
    const toJSON = (object as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') {
      let json: unknown;
      try {
        json = toJSON.call(object, key);
      } catch (err) {
        return `[toJSON failed: ${thrownText(err)}]`;
      }
      if (json !== object) return this.convert(key, json, depth);
    }
    const keys = Object.keys(object);
    const pairs = keys.slice(0, LOG_LIMITS.width).map((k): [string, unknown] => [k, read(object, k)]);
    return this.entries(pairs, depth, keys.length);
  }

  private entries(pairs: [string, unknown][], depth: number, total: number): Plain {
    const out: Record<string, Plain> = {};
    for (const [i, [k, v]] of pairs.entries()) {
      if (this.left <= 0) {
        out['…'] = `${total - i} more keys (the record is too large)`;
        return out;
      }
      if (v === undefined) continue;
      this.left -= k.length + 4;
      out[k] = this.convert(k, v, depth + 1);
    }
    if (total > pairs.length) out['…'] = `${total - pairs.length} more keys`;
    return out;
  }

  private items(key: string, list: readonly unknown[], depth: number, total = list.length): Plain {
    const out: Plain[] = [];
    const shown = Math.min(list.length, LOG_LIMITS.width);
    for (let i = 0; i < shown; i++) {
      if (this.left <= 0) {
        out.push(`… ${total - i} more items (the record is too large)`);
        return out;
      }
      this.left -= 2;
      out.push(this.convert(key, read(list, i), depth + 1));
    }
    if (total > shown) out.push(`… ${total - shown} more items`);
    return out;
  }

  /** type, message, code, stack, and what caused it (a chain, each link converted the same way). */
  private error(err: Error, depth: number): Plain {
    const out: Record<string, Plain> = { type: this.text(String(read(err, 'name') ?? 'Error')) };
    out.message = this.convert('message', read(err, 'message'), depth + 1);
    const code = read(err, 'code');
    if (code !== undefined && code !== null && code !== '') out.code = this.convert('code', code, depth + 1);
    const stack = read(err, 'stack');
    if (typeof stack === 'string') out.stack = this.text(stack);
    const cause = read(err, 'cause');
    if (cause !== undefined) out.cause = this.convert('cause', cause, depth + 1);
    const errors = (err as { errors?: unknown }).errors;
    if (err instanceof AggregateError && Array.isArray(errors))
      out.errors = this.items('errors', errors, depth);
    return out;
  }
}

/**
 * Objects written as what a reader wants of them: Fastify's request and reply (which it logs as
 * `req` and `res`) as pino prints them, and live objects (sockets, streams, servers: anything that
 * emits events) by their kind, not their internals.
 */
function known(key: string, object: object): Plain | undefined {
  const o = object as Record<string, unknown>;
  if (key === 'res' && typeof o.statusCode === 'number') return { statusCode: o.statusCode };
  if (key === 'req' && typeof o.method === 'string' && typeof o.url === 'string')
    return { method: o.method, url: o.url.split('?')[0]! };
  if (ArrayBuffer.isView(object)) return `[${kindOf(object)} ${object.byteLength} bytes]`;
  if (typeof o.on === 'function' && typeof o.emit === 'function') return `[${kindOf(object)}]`;
  return undefined;
}

function kindOf(object: object): string {
  const name = (Object.getPrototypeOf(object) as { constructor?: { name?: unknown } } | null)?.constructor
    ?.name;
  return typeof name === 'string' && name !== '' ? name : 'Object';
}

/** A property, or a note of why it cannot be read (a getter that throws). */
function read(object: object, key: string | number): unknown {
  try {
    return (object as Record<string | number, unknown>)[key];
  } catch (err) {
    return `[unreadable: ${thrownText(err)}]`;
  }
}

/** A record's own fields, as many as a record shows; a field that cannot be read says why. */
export function entriesOf(fields: object): [string, unknown][] {
  let keys: string[];
  try {
    keys = Object.keys(fields);
  } catch (err) {
    return [['fields', `[unreadable: ${thrownText(err)}]`]];
  }
  const out = keys.slice(0, LOG_LIMITS.width).map((key): [string, unknown] => [key, read(fields, key)]);
  if (keys.length > LOG_LIMITS.width) out.push(['…', `${keys.length - LOG_LIMITS.width} more fields`]);
  return out;
}

/**
 * A record's fields (or a child logger's bindings) as written: each converted with one shared
 * budget. A `block` (a whole email, say) may fill the whole record (see log.ts).
 */
export function plainFields(fields: object): Record<string, Plain> {
  const budget = new Budget();
  const out: Record<string, Plain> = {};
  for (const [key, value] of entriesOf(fields))
    out[key] =
      key === BLOCK && typeof value === 'string'
        ? budget.text(value, LOG_LIMITS.record)
        : budget.field(key, value);
  return out;
}
export const BLOCK = 'block';

export function isError(value: unknown): value is Error {
  try {
    return value instanceof Error;
  } catch {
    return false;
  }
}

/** What a thrown value says, whatever it is. */
export function thrownText(thrown: unknown): string {
  try {
    if (thrown instanceof Error) return String(thrown.message);
    return String(thrown);
  } catch {
    return 'a value that cannot be printed';
  }
}

/** The first `n` of a collection, without copying the rest of a huge one. */
function first<T>(items: Iterable<T>, n: number): T[] {
  const out: T[] = [];
  for (const item of items) {
    if (out.length >= n) break;
    out.push(item);
  }
  return out;
}

/** A string cut past `max` characters, with a note of how many more there were. */
export function cut(s: string, max = LOG_LIMITS.chars): string {
  return s.length > max ? `${s.slice(0, max)}… [${s.length - max} more characters]` : s;
}
