/** A backend failure with the words a user reads and whether trying again can help. */
export class BackendError extends Error {
  constructor(
    /** What the user reads on the cluster or instance. */
    readonly reason: string,
    readonly retryable: boolean,
    options?: { cause?: unknown },
  ) {
    super(reason, options);
    this.name = 'BackendError';
  }
}

/** Capacity, throttling, a passing fault: the same call may work later. */
export const retryable = (reason: string, cause?: unknown) => new BackendError(reason, true, { cause });
/** Permission, bad configuration: the same call will fail again until a person changes something. */
export const final = (reason: string, cause?: unknown) => new BackendError(reason, false, { cause });

/** The user-readable reason of any failure the reconciler meets. */
export function describeFailure(err: unknown): string {
  if (err instanceof BackendError) return err.reason;
  return err instanceof Error ? err.message : String(err);
}
