import { camelCase } from '@/lib/api/camelize';

/** The client error kinds, by HTTP status or failure. */
export type ApiErrorKind = 'conflict' | 'unauthorized' | 'notFound' | 'network' | 'timeout' | 'unknown';

export const ERROR_MESSAGES = {
  conflict: 'Conflict',
  unauthorized: 'It seems you have been logged out, redirecting to login',
  notFound: '404: Could not find that page or resource',
  network: "Can't connect to the server",
  timeout: 'A network call timed out',
  unknown: 'An unknown error occurred',
} as const satisfies Record<ApiErrorKind, string>;

/** What the generated client says of a non-2xx answer and of a failed fetch (section 8, "Generic"). */
export const RESPONSE_ERROR = 'Response returned an error code';
export const FETCH_ERROR = 'The request failed and the interceptors did not return an alternative response';

/** The JSON error body as the server sent it: field errors, non_field_errors, detail, code... */
export type ErrorBody = Record<string, unknown>;

function kindOfStatus(status: number): ApiErrorKind {
  if (status === 409) return 'conflict';
  if (status === 401) return 'unauthorized';
  if (status === 404) return 'notFound';
  return 'unknown';
}

function stringList(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return [];
}

/**
 * Every failed call ends as one of these. `message` is the section 8 text of its kind; the
 * server's body stays available for forms (field errors, non_field_errors, detail, code).
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly kind: ApiErrorKind,
    /** The HTTP status, when the server answered. */
    readonly status?: number,
    /** The server's JSON body (wire keys, not camelCased), when there was one. */
    readonly body?: ErrorBody,
    options?: { cause?: unknown },
  ) {
    super(ERROR_MESSAGES[kind], options);
  }

  static fromResponse(status: number, body: unknown): ApiError {
    const errorBody =
      typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as ErrorBody) : undefined;
    return new ApiError(kindOfStatus(status), status, errorBody, { cause: new Error(RESPONSE_ERROR) });
  }

  /** A call that got no answer: aborted by its timeout, or the network failed. */
  static fromFailure(cause: unknown): ApiError {
    const timedOut = cause instanceof DOMException && cause.name === 'TimeoutError';
    return new ApiError(timedOut ? 'timeout' : 'network', undefined, undefined, {
      cause: timedOut ? cause : new Error(FETCH_ERROR, { cause }),
    });
  }

  get detail(): string | undefined {
    return typeof this.body?.detail === 'string' ? this.body.detail : undefined;
  }

  get code(): string | undefined {
    return typeof this.body?.code === 'string' ? this.body.code : undefined;
  }

  get nonFieldErrors(): string[] {
    return stringList(this.body?.non_field_errors);
  }

  /** Messages for one wire field (`new_password1`), or for its camelCase name (`newPassword1`). */
  fieldErrors(field: string): string[] {
    if (!this.body) return [];
    const direct = stringList(this.body[field]);
    if (direct.length > 0) return direct;
    const entry = Object.entries(this.body).find(([key]) => camelCase(key) === field);
    return entry ? stringList(entry[1]) : [];
  }

  /** `{ camelCaseField: messages }` for every field error in the body (not detail, code or non_field_errors). */
  get fields(): Record<string, string[]> {
    const fields: Record<string, string[]> = {};
    for (const [key, value] of Object.entries(this.body ?? {})) {
      if (key === 'detail' || key === 'code' || key === 'non_field_errors') continue;
      const messages = stringList(value);
      if (messages.length > 0) fields[camelCase(key)] = messages;
    }
    return fields;
  }

  /** The 409 protocol of section 4: `confirm` or `retry` (servers spell it either way). */
  get actionRequired(): 'confirm' | 'retry' | undefined {
    const value = this.body?.actionRequired ?? this.body?.action_required;
    return value === 'confirm' || value === 'retry' ? value : undefined;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** The user-readable text for any error a call or page may throw. */
export function errorMessage(error: unknown): string {
  return isApiError(error) ? error.message : ERROR_MESSAGES.unknown;
}

/**
 * The server's own words for a failed call, read as API clients read them (client-contract.md
 * 0.5): its `message`, else its `detail`, else the first non-field error, else its field errors
 * (`{"worker_options.nthreads": ["..."]}`), else the kind's text. `placed` names the fields
 * (camelCase) a form already shows at their field: those are left out, and when nothing else is
 * left the answer is null.
 */
export function serverMessage(error: unknown): string;
export function serverMessage(error: unknown, placed: ReadonlySet<string>): string | null;
export function serverMessage(error: unknown, placed?: ReadonlySet<string>): string | null {
  if (!isApiError(error)) return errorMessage(error);
  const message = error.body?.message;
  if (typeof message === 'string' && message) return message;
  const general = error.detail ?? error.nonFieldErrors[0];
  if (general) return general;
  const elsewhere = Object.entries(error.fields).filter(([field]) => !placed?.has(field));
  if (elsewhere.length > 0) return elsewhere.flatMap(([, messages]) => messages).join(' ');
  return placed && placed.size > 0 ? null : error.message;
}
