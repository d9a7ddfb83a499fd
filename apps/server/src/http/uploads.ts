import type { FastifyRequest } from 'fastify';
import type { Announced } from '../lib/receive-file.js';
import { badRequest } from './errors.js';

/** The size the sender announced (Content-Length), for receiveFile: fewer bytes than that are no file. */
export function announcedSize(request: FastifyRequest): Announced | undefined {
  const header = request.headers['content-length'];
  if (typeof header !== 'string' || !/^\d{1,15}$/.test(header)) return undefined;
  const bytes = Number(header);
  return {
    bytes,
    short: (received) =>
      badRequest(`Received ${received} of ${bytes} bytes: upload the file again.`, 'INCOMPLETE_UPLOAD'),
  };
}
