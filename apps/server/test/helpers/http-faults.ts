import { get, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';

/** How a response ended: whole, or cut (`complete` false) with what had arrived. */
export interface Ending {
  complete: boolean;
  bytes: number;
}

export interface PausedDownload {
  status: number;
  headers: IncomingHttpHeaders;
  /** Bytes read so far. */
  bytes(): number;
  /** Reads on, to the end. */
  resume(): void;
  /** Closes the connection, as a client that goes away mid-download. */
  abort(): void;
  ended: Promise<Ending>;
  /** The body read after resume(), when it is kept (`keep`). */
  body(): Buffer;
}

/**
 * A GET over real HTTP that reads the head and the first chunk of the body, then stops reading
 * (the socket's buffers fill, the server must wait); resume() or abort() decides what follows.
 */
export function pausedDownload(
  url: string,
  headers: Record<string, string> = {},
  options: { keep?: boolean } = {},
): Promise<PausedDownload> {
  return new Promise((resolve, reject) => {
    const req = get(url, { headers, agent: false }, (res) => {
      let bytes = 0;
      const chunks: Buffer[] = [];
      const ended = new Promise<Ending>((done) => {
        const end = () => done({ complete: res.complete, bytes });
        res.once('end', end);
        res.once('close', end);
        res.once('aborted', end);
        res.on('error', end);
      });
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (options.keep) chunks.push(chunk);
      });
      const started = () => {
        res.pause();
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          bytes: () => bytes,
          resume: () => res.resume(),
          abort: () => req.destroy(),
          ended,
          body: () => Buffer.concat(chunks),
        });
      };
      // A body-less answer (an error) resolves at its end; a body at its first chunk.
      res.once('data', started);
      res.once('end', started);
    });
    req.on('error', reject);
  });
}

/**
 * Sends `method path` over a raw socket announcing `announced` bytes of body, sends `sent` of
 * them, waits for `until` (the server has taken them: a partial file exists, say), then closes the
 * socket, as a client whose connection broke mid-upload. Answers what the server said, if anything.
 */
export async function truncatedUpload(
  url: string,
  request: { method: string; headers: Record<string, string>; announced: number; sent: Buffer },
  until: () => Promise<unknown> = () => new Promise((r) => setTimeout(r, 200)),
): Promise<string> {
  const { hostname, port, pathname, search } = new URL(url);
  const socket = connect(Number(port), hostname);
  let answer = '';
  socket.setEncoding('latin1').on('data', (chunk: string) => {
    answer += chunk;
  });
  socket.on('error', () => {});
  await new Promise((resolve) => socket.once('connect', resolve));
  const head = Object.entries({ host: `${hostname}:${port}`, ...request.headers })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  socket.write(
    `${request.method} ${pathname}${search} HTTP/1.1\r\n${head}content-length: ${request.announced}\r\n\r\n`,
  );
  socket.write(request.sent);
  await until();
  socket.destroy();
  return answer;
}
