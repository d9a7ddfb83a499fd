import { connect } from 'node:net';

/**
 * Sends a WebSocket upgrade for `path` to the server at `serverUrl` (Host: its own, unless
 * `headers` name another) and answers the head it got back: the status line and headers.
 */
export function sendUpgrade(
  serverUrl: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<string> {
  const { host, port } = new URL(serverUrl);
  const lines = Object.entries({ host, ...headers }).map(([k, v]) => `${k}: ${v}\r\n`);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.write(
        `GET ${path} HTTP/1.1\r\n${lines.join('')}Upgrade: websocket\r\nConnection: Upgrade\r\n` +
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
      );
    });
    let got = '';
    socket.on('data', (chunk) => {
      got += chunk.toString();
      if (got.includes('\r\n\r\n')) {
        socket.destroy();
        resolve(got.split('\r\n\r\n')[0]!);
      }
    });
    socket.on('error', reject);
    socket.setTimeout(20_000, () => reject(new Error('no answer')));
  });
}

/** The status line of an upgrade's answer. */
export const upgradeStatus = async (serverUrl: string, path: string, headers: Record<string, string> = {}) =>
  (await sendUpgrade(serverUrl, path, headers)).split('\r\n')[0]!;
