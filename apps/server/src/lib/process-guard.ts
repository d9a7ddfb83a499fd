import type { FastifyBaseLogger } from 'fastify';
import { thrownText } from './log-values.js';

type Origin = 'uncaughtException' | 'unhandledRejection';

/** The request an escaped error came from, as http/request-context.ts knows it. */
export interface EscapedFrom {
  readonly id: string;
  end(): void;
}

/**
 * Keeps the server up when an error escapes every handler (a throw in a timer or stream callback,
 * a rejection nobody awaited): it is logged at error level with the id of the request it came
 * from where one is known, that request's connection is closed, and every other request goes on.
 * Answers a function that removes the guard.
 */
export function installProcessGuard(
  log: FastifyBaseLogger,
  requestOf: () => EscapedFrom | undefined,
): () => void {
  const record = (origin: Origin) => (err: unknown) => {
    try {
      const request = requestOf();
      if (request) {
        log.error(
          { err, origin, reqId: request.id },
          'an error escaped its request, which was ended; the server goes on serving',
        );
        request.end();
      } else log.error({ err, origin }, 'an error escaped outside any request; the server goes on serving');
    } catch (failure) {
      // Nothing may throw from here: Node would stop the process.
      try {
        process.stderr.write(
          `${origin}: ${thrownText(err)} (and recording it failed: ${thrownText(failure)})\n`,
        );
      } catch {}
    }
  };
  const onException = record('uncaughtException');
  const onRejection = record('unhandledRejection');
  process.on('uncaughtException', onException);
  process.on('unhandledRejection', onRejection);
  return () => {
    process.off('uncaughtException', onException);
    process.off('unhandledRejection', onRejection);
  };
}
