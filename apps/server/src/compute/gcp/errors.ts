import { BackendError, final, retryable } from '../errors.js';
import { GcpTokenError } from './auth.js';

/** Compute Engine's error of a failed call or operation: its HTTP code, reason and message. */
export interface GceFailure {
  code: number;
  reason: string;
  message: string;
}

/** A failed operation (its `error.errors[0]`), thrown as the call's errors are. */
export class GceOperationError extends Error {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

/** What Compute Engine said, from the client's error (its JSON body) or an operation's. */
export function failureOf(err: unknown): GceFailure {
  if (err instanceof GceOperationError) return { code: 0, reason: err.reason, message: err.message };
  const e = err as { code?: number; message?: string };
  try {
    const body = JSON.parse(e.message ?? '') as {
      error?: { code: number; message: string; errors?: { reason: string }[] };
    };
    if (body.error)
      return {
        code: body.error.code,
        reason: body.error.errors?.[0]?.reason ?? '',
        message: body.error.message,
      };
  } catch {
    // not Google's JSON: the message as it is
  }
  return { code: typeof e.code === 'number' ? e.code : 0, reason: '', message: e.message ?? String(err) };
}

/** Zone capacity, Google's words: another zone may have it. */
const ANOTHER_ZONE = new Set([
  'ZONE_RESOURCE_POOL_EXHAUSTED',
  'ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS',
  'resourcePoolExhausted',
]);

export function nextChoice(err: unknown, type: string): 'zone' | 'market' | 'type' | null {
  const { reason, message } = failureOf(err);
  if (ANOTHER_ZONE.has(reason) || /does not have enough resources available/.test(message)) return 'zone';
  // "Machine type with name 'x' does not exist in zone 'z'": another zone may offer it.
  if (message.includes(`'${type}' does not exist in zone`)) return 'zone';
  // "The resource 'projects/p/zones/z/acceleratorTypes/nvidia-tesla-t4' was not found": GPUs are
  // offered in some zones of a region only.
  if (/\/acceleratorTypes\/[^']+' was not found/.test(message)) return 'zone';
  if (reason === 'QUOTA_EXCEEDED' || reason === 'quotaExceeded') return 'type';
  return null;
}

/** A failure in the user's words; bad requests, refused credentials and permissions need a person. */
export function classify(err: unknown): BackendError {
  if (err instanceof BackendError) return err;
  if (err instanceof GcpTokenError)
    return final(`Google refused the workspace's GCP credentials: ${err.message}`, err);
  const { code, message } = failureOf(err);
  return code === 400 || code === 401 || code === 403 || code === 404
    ? final(message, err)
    : retryable(message, err);
}

export const messageOf = (err: unknown) => failureOf(err).message;
