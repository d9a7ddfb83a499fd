// A page's URL state as one declaration: each parameter's name, the schema its text must pass and
// the value it has when absent or invalid. `parse` reads a query string (an invalid value is the
// default, never an error: a shared link always opens); `write` sets the values back, leaving out
// defaults and empty values and keeping every other parameter (`account`, `tab`) in place.
// A schema is any Standard Schema (https://standardschema.dev), so a zod schema serves as well as
// the readers below; these are what pages use, because the Dashboard and the entry parse their
// address on a first visit and zod there adds 22 KiB gzip to it (measured: 230.0 -> 251.9 KiB).

type Result<T> = { value: T; issues?: undefined } | { issues: ReadonlyArray<{ message: string }> };
/** The part of a Standard Schema (v1) this helper uses; zod's schemas have it. */
export type Schema<T> = {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => Result<T> | Promise<Result<T>>;
  };
};

/** One query-string parameter. */
export type Param<T> = {
  name: string;
  /** What the parameter's text must be; its output is the value (synchronously). */
  schema: Schema<T>;
  /** The value when the parameter is absent or fails the schema. */
  fallback: T;
  /** The value as text; null or '' leaves the parameter out. By default `String(value)`. */
  text?: (value: T) => string | null;
};

// biome-ignore lint/suspicious/noExplicitAny: any Param, whatever its value type
type Params = Record<string, Param<any>>;
export type ValuesOf<P extends Params> = { [K in keyof P]: P[K]['fallback'] };

export const param = <T>(
  name: string,
  schema: Schema<T>,
  fallback: T,
  text?: (value: T) => string | null,
): Param<T> => ({ name, schema, fallback, ...(text ? { text } : {}) });

const asText = <T>(p: Param<T>, value: T): string | null =>
  value === null ? null : p.text ? p.text(value) : String(value);

export function searchParams<P extends Params>(params: P) {
  const entries = Object.entries(params) as Array<[keyof P & string, Param<unknown>]>;
  return {
    params,
    parse(search: URLSearchParams): ValuesOf<P> {
      const values: Record<string, unknown> = {};
      for (const [key, p] of entries) {
        const raw = search.get(p.name);
        const read = raw === null ? null : p.schema['~standard'].validate(raw);
        values[key] = read && 'value' in read && !read.issues ? read.value : p.fallback;
      }
      return values as ValuesOf<P>;
    },
    /** `search` with `values` written: a default or empty value removes its parameter. */
    write(search: URLSearchParams, values: Partial<ValuesOf<P>>): URLSearchParams {
      const out = new URLSearchParams(search);
      for (const [key, p] of entries) {
        if (!(key in values)) continue;
        const text = asText(p, values[key]);
        if (text === null || text === '' || text === asText(p, p.fallback)) out.delete(p.name);
        else out.set(p.name, text);
      }
      return out;
    },
  };
}

// The schemas pages share: plain readers, so the first load carries no validation library.

/** A schema from a reader that returns undefined for text it does not accept. */
export function reader<T>(read: (raw: string) => T | undefined): Schema<T> {
  return {
    '~standard': {
      version: 1,
      vendor: 'cumulus',
      validate: (value) => {
        const read_ = typeof value === 'string' ? read(value) : undefined;
        return read_ === undefined ? { issues: [{ message: 'Not a valid value' }] } : { value: read_ };
      },
    },
  };
}

/** Digits only (at most `digits` of them), read as a number from `min` to `max`. */
export function wholeNumber({ min = 0, max = Number.MAX_SAFE_INTEGER, digits = 0 } = {}) {
  const pattern = digits ? new RegExp(`^\\d{1,${digits}}$`) : /^\d+$/;
  return reader((raw) => {
    const value = pattern.test(raw) ? Number(raw) : Number.NaN;
    return value >= min && value <= max ? value : undefined;
  });
}

/** One of `values`. */
export const oneOf = <T extends string>(values: readonly T[]) =>
  reader((raw) => values.find((value) => value === raw));

/** A value a type guard accepts. */
export const accepted = <T extends string>(guard: (value: string) => value is T) =>
  reader((raw) => (guard(raw) ? raw : undefined));

/** Free text, cut to `max` characters (trimmed first when `trim`). */
export const text = (max: number, { trim = false } = {}) =>
  reader((raw) => (trim ? raw.trim() : raw).slice(0, max));

/** A value the page reads its own way from the parameter's text (a filter list, a flag). */
export const readAs = <T>(read: (raw: string) => T) => reader(read);
