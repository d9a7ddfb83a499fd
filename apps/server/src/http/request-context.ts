import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import type { IncomingHttpHeaders } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';

/**
 * The request whose work is running, for the process guard (lib/process-guard.ts): an error that
 * escapes a handler (a throw in a timer or stream callback, a rejection nobody awaited) is recorded
 * with the request's id, and ends that request only.
 */
export interface RequestContext {
  readonly id: string;
  /** False once the response is complete or its connection gone: later work is not the request's. */
  readonly active: boolean;
  /** Closes the request's connection: its client sees it fail; nothing else is touched. */
  end(): void;
}

/**
 * Small on purpose: every async resource a request creates (promises, ticks, timers, socket
 * writes) carries its context, and some of them outlive the request (a kept-alive socket's
 * timer); a context holding the request's objects kept each request in memory past two
 * scavenges, so the heap's old space filled with them (measured: 3-4 full collections in 5 s
 * under load instead of none).
 */
class Context implements RequestContext {
  #open = true;
  #connection: WeakRef<Duplex> | undefined;

  constructor(
    readonly id: string,
    connection: Duplex | null,
  ) {
    this.#connection = connection ? new WeakRef(connection) : undefined;
  }

  get active(): boolean {
    return this.#open;
  }

  end(): void {
    if (this.#open) this.#connection?.deref()?.destroy();
  }

  close(): void {
    this.#open = false;
  }
}

const storage = new AsyncLocalStorage<Context>();

/** The request the running code serves, if it serves one that is still open. */
export function currentRequest(): RequestContext | undefined {
  const context = storage.getStore();
  return context?.active ? context : undefined;
}

/** A caller's own `x-request-id` when it is a plain token, else a new one. */
export function requestIdOf(headers: IncomingHttpHeaders): string {
  const given = headers['x-request-id'];
  return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
}

/** Runs each request, from its first hook to the last event of its streams, in its context. */
export function installRequestContext(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    const res = reply.raw;
    const context = new Context(request.id, res.socket);
    storage.run(context, () => {
      const resource = new AsyncResource('cumulus.request');
      bindEvents(request.raw, resource);
      bindEvents(res, resource, context);
      done();
    });
  });
}

/** Runs a WebSocket upgrade (its handler and the events of its socket) in a context of its own. */
export function inUpgradeContext(headers: IncomingHttpHeaders, socket: Duplex, run: () => void): void {
  const context = new Context(requestIdOf(headers), socket);
  storage.run(context, () => {
    bindEvents(socket, new AsyncResource('cumulus.request'), context);
    run();
  });
}

/**
 * A request's stream events are emitted from its socket's callbacks, outside the context its
 * handler runs in; bound to the request, whatever their listeners (Fastify's, ours) throw is
 * traced back to it. The context of `until` ends with its 'close' event, once every listener
 * has run: what one of them throws is still the request's.
 */
function bindEvents(emitter: EventEmitter, resource: AsyncResource, until?: Context): void {
  const emit = emitter.emit;
  emitter.emit = function (this: EventEmitter, event: string | symbol, ...args: unknown[]) {
    const result = resource.runInAsyncScope(emit, this, event, ...args);
    if (until && event === 'close') until.close();
    return result;
  };
}
