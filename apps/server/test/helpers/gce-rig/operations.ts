import { type Links, newId } from './catalog.js';

/** An error as Compute Engine answers it: `{error: {code, message, errors: [{message, domain, reason}]}}`. */
export class GceError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly reason: string,
    readonly status: string,
  ) {
    super(message);
  }
  body() {
    return {
      error: {
        code: this.code,
        message: this.message,
        errors: [{ message: this.message, domain: 'global', reason: this.reason }],
        // Cloud Storage's JSON API errors carry none (storage.ts).
        ...(this.status && { status: this.status }),
      },
    };
  }
}

export const badRequest = (message: string, reason = 'invalid') =>
  new GceError(400, message, reason, 'INVALID_ARGUMENT');
export const notFound = (resource: string) =>
  new GceError(404, `The resource '${resource}' was not found`, 'notFound', 'NOT_FOUND');
export const alreadyExists = (resource: string) =>
  new GceError(409, `The resource '${resource}' already exists`, 'alreadyExists', 'ALREADY_EXISTS');

export type Scope = { zone: string } | { region: string } | 'global';

export interface Operation {
  kind: 'compute#operation';
  id: string;
  name: string;
  operationType: string;
  targetLink: string;
  targetId: string;
  status: 'PENDING' | 'RUNNING' | 'DONE';
  user: string;
  progress: number;
  insertTime: string;
  startTime: string;
  endTime?: string;
  selfLink: string;
  zone?: string;
  region?: string;
  error?: { errors: { code: string; message: string }[] };
  httpErrorStatusCode?: number;
  httpErrorMessage?: string;
}

const timestamp = () => new Date().toISOString().replace('Z', '-00:00');

/**
 * Long-running operations: every insert and delete answers one RUNNING, which is DONE once its
 * work (`finish`) ran after `delayMs`, as Compute Engine's are seconds later. `get` and `wait`
 * read them back by scope and name.
 */
export class Operations {
  readonly #all = new Map<string, { op: Operation; done: Promise<void> }>();
  constructor(
    readonly links: Links,
    readonly user: string,
    readonly delayMs: number,
  ) {}

  start(
    scope: Scope,
    operationType: string,
    target: { link: string; id: string },
    finish: () => void,
  ): Operation {
    const name = `operation-${Date.now()}-${newId().slice(-8)}`;
    const where =
      scope === 'global'
        ? `${this.links.projectLink}/global`
        : 'zone' in scope
          ? this.links.zone(scope.zone)
          : this.links.region(scope.region);
    const op: Operation = {
      kind: 'compute#operation',
      id: newId(),
      name,
      operationType,
      targetLink: target.link,
      targetId: target.id,
      status: 'RUNNING',
      user: this.user,
      progress: 0,
      insertTime: timestamp(),
      startTime: timestamp(),
      selfLink: `${where}/operations/${name}`,
      ...(scope !== 'global' && 'zone' in scope ? { zone: this.links.zone(scope.zone) } : {}),
      ...(scope !== 'global' && 'region' in scope ? { region: this.links.region(scope.region) } : {}),
    };
    const done = new Promise<void>((resolve) =>
      setTimeout(() => {
        try {
          finish();
        } catch (err) {
          const failure = err as { code?: string; message: string; status?: number };
          op.error = {
            errors: [{ code: failure.code ?? 'RESOURCE_OPERATION_FAILED', message: failure.message }],
          };
          op.httpErrorStatusCode = failure.status ?? 400;
          op.httpErrorMessage = failure.status === 503 ? 'SERVICE UNAVAILABLE' : 'BAD REQUEST';
        }
        op.status = 'DONE';
        op.progress = 100;
        op.endTime = timestamp();
        resolve();
      }, this.delayMs),
    );
    this.#all.set(this.key(scope, name), { op, done });
    return { ...op };
  }

  get(scope: Scope, name: string): Operation {
    const found = this.#all.get(this.key(scope, name));
    if (!found) throw notFound(`${this.scopePath(scope)}/operations/${name}`);
    return { ...found.op };
  }

  /** `operations.wait`: the operation once DONE, or as it is after two minutes (Google's limit). */
  async wait(scope: Scope, name: string): Promise<Operation> {
    const found = this.#all.get(this.key(scope, name));
    if (!found) throw notFound(`${this.scopePath(scope)}/operations/${name}`);
    await Promise.race([found.done, new Promise((r) => setTimeout(r, 120_000).unref())]);
    return { ...found.op };
  }

  private scopePath(scope: Scope) {
    const project = `projects/${this.links.project}`;
    if (scope === 'global') return `${project}/global`;
    return 'zone' in scope ? `${project}/zones/${scope.zone}` : `${project}/regions/${scope.region}`;
  }

  private key(scope: Scope, name: string) {
    return `${this.scopePath(scope)}/${name}`;
  }
}
