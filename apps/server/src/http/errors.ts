import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { databaseUnavailable } from '../lib/db-errors.js';

export type ErrorBody = Record<string, unknown>;

/** A failure with the exact JSON body the client sees. Services throw these; one handler sends them. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: ErrorBody,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body.detail === 'string' ? body.detail : `HTTP ${statusCode}`);
  }
}

export const notFound = (detail = 'Not found.') => new ApiError(404, { detail, code: 'NOT_FOUND' });

export const badRequest = (detail: string, code = 'BAD_REQUEST', extra: ErrorBody = {}) =>
  new ApiError(400, { detail, code, ...extra });

export const conflict = (detail: string, code = 'CONFLICT', extra: ErrorBody = {}) =>
  new ApiError(409, { detail, code, ...extra });

/**
 * A 409 that needs the caller's decision:
 * `confirm` asks the user and repeats with confirm=true; `retry` repeats after 3 s. Both
 * spellings are sent, as the console and the Python client each read theirs.
 */
export const actionRequired = (mode: 'confirm' | 'retry', detail: string) =>
  new ApiError(409, { detail, code: 'ACTION_REQUIRED', action_required: mode, actionRequired: mode });

export const permissionDenied = (detail = 'You do not have permission to perform this action.') =>
  new ApiError(403, { detail, code: 'PERMISSIONS_ERROR' });

export const notAuthenticated = () =>
  new ApiError(
    401,
    { detail: 'Authentication credentials were not provided.', code: 'NOT_AUTHENTICATED' },
    { 'www-authenticate': 'Token' },
  );

export const invalidToken = () =>
  new ApiError(
    401,
    { detail: 'Invalid token.', code: 'API_AUTHENTICATION_ERROR' },
    { 'www-authenticate': 'Token' },
  );

/** `{"field": ["message"]}`, the shape forms put next to their fields. */
export class FieldErrors extends ApiError {
  constructor(readonly errors: Record<string, string[]>) {
    super(400, errors);
  }
}

export const fieldError = (field: string, message: string) => new FieldErrors({ [field]: [message] });
export const nonFieldError = (message: string) => new FieldErrors({ non_field_errors: [message] });

/** Collects field errors so a form learns about every bad field at once. */
export class FieldErrorCollector {
  readonly errors: Record<string, string[]> = {};
  add(field: string, message: string): void {
    const list = this.errors[field];
    if (list) list.push(message);
    else this.errors[field] = [message];
  }
  has(field: string): boolean {
    return field in this.errors;
  }
  throwIfAny(): void {
    if (Object.keys(this.errors).length > 0) throw new FieldErrors(this.errors);
  }
}

export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) {
      return reply.code(error.statusCode).headers(error.headers).send(error.body);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      // A malformed path id names nothing that exists.
      if (error.validationContext === 'params')
        return reply.code(404).send({ detail: 'Not found.', code: 'NOT_FOUND' });
      const errors = new FieldErrorCollector();
      for (const issue of error.validation) {
        const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || 'non_field_errors';
        errors.add(field, issue.message ?? 'Invalid value.');
      }
      return reply.code(400).send(errors.errors);
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, issues: error.cause.issues }, 'response did not match its schema');
      return reply.code(500).send({ detail: 'A server error occurred.', code: 'SERVER_ERROR' });
    }
    if (databaseUnavailable(error)) {
      // A database restart or outage: this request fails, the server and its loops go on.
      request.log.warn({ err: error }, 'database unavailable');
      return reply
        .code(503)
        .header('retry-after', '5')
        .send({ detail: 'The database is unavailable; try again shortly.', code: 'DATABASE_UNAVAILABLE' });
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'unhandled error');
      return reply.code(500).send({ detail: 'A server error occurred.', code: 'SERVER_ERROR' });
    }
    if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
      return reply.code(400).send({ detail: `JSON parse error - ${error.message}`, code: 'PARSE_ERROR' });
    }
    return reply.code(status).send({ detail: error.message, code: error.code ?? 'BAD_REQUEST' });
  });
}
