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

const storage = new AsyncLocalStorage<RequestContext>();

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
    const context = contextOf(request.id, res, () => res.destroy());
    storage.run(context, () => {
      bindEvents(request.raw);
      bindEvents(res);
      done();
    });
  });
}

/** Runs a WebSocket upgrade (its handler and the events of its socket) in a context of its own. */
export function inUpgradeContext(headers: IncomingHttpHeaders, socket: Duplex, run: () => void): void {
  const context = contextOf(requestIdOf(headers), socket, () => socket.destroy());
  storage.run(context, () => {
    bindEvents(socket);
    run();
  });
}

function contextOf(id: string, until: EventEmitter, end: () => void): RequestContext {
  let active = true;
  // Not at once: what the other 'close' listeners throw (Fastify's among them) is still the request's.
  until.once('close', () =>
    setImmediate(() => {
      active = false;
    }),
  );
  return {
    id,
    get active() {
      return active;
    },
    end: () => {
      if (active) end();
    },
  };
}

/**
 * A request's stream events are emitted from its socket's callbacks, outside the context its
 * handler runs in; bound to the request, whatever their listeners (Fastify's, ours) throw is
 * traced back to it.
 */
function bindEvents(emitter: EventEmitter): void {
  const resource = new AsyncResource('cumulus.request');
  const emit = emitter.emit;
  emitter.emit = function (this: EventEmitter, event: string | symbol, ...args: unknown[]) {
    return resource.runInAsyncScope(emit, this, event, ...args);
  };
}
