import { createSocket, type Socket } from 'node:dgram';
import type { AddressInfo } from 'node:net';

/**
 * A real DNS server on a local UDP port that answers TXT questions from `records` (name → values)
 * and NXDOMAIN for names it does not know: what a domain's DNS says, for domain proofs.
 */
export class TxtDnsServer {
  readonly records = new Map<string, string[]>();
  readonly questions: string[] = [];
  #socket: Socket | null = null;
  port = 0;

  async start(): Promise<string> {
    const socket = createSocket('udp4');
    this.#socket = socket;
    socket.on('message', (query, peer) => {
      const answer = this.#answer(query);
      if (answer) socket.send(answer, peer.port, peer.address);
    });
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    this.port = (socket.address() as AddressInfo).port;
    return `127.0.0.1:${this.port}`;
  }

  #answer(query: Buffer): Buffer | null {
    if (query.length < 12) return null;
    // The question: length-prefixed labels up to a zero byte, then its type and class.
    const labels: string[] = [];
    let at = 12;
    while (at < query.length && query[at] !== 0) {
      const length = query[at]!;
      labels.push(query.subarray(at + 1, at + 1 + length).toString('ascii'));
      at += 1 + length;
    }
    const questionEnd = at + 5;
    if (questionEnd > query.length) return null;
    const type = query.readUInt16BE(at + 1);
    const name = labels.join('.').toLowerCase();
    this.questions.push(name);
    const values = this.records.get(name);
    const answers = values && type === 16 ? values : [];
    const header = Buffer.alloc(12);
    query.copy(header, 0, 0, 2);
    // A response to a recursive query; NXDOMAIN (3) for unknown names.
    header.writeUInt16BE(0x8180 | (values ? 0 : 3), 2);
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answers.length, 6);
    const records = answers.map((value) => {
      const chunks: Buffer[] = [];
      for (let i = 0; i < value.length || i === 0; i += 255) {
        const part = Buffer.from(value.slice(i, i + 255), 'utf8');
        chunks.push(Buffer.from([part.length]), part);
      }
      const data = Buffer.concat(chunks);
      const fixed = Buffer.alloc(12);
      fixed.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
      fixed.writeUInt16BE(16, 2); // TXT
      fixed.writeUInt16BE(1, 4); // IN
      fixed.writeUInt32BE(60, 6);
      fixed.writeUInt16BE(data.length, 10);
      return Buffer.concat([fixed, data]);
    });
    return Buffer.concat([header, query.subarray(12, questionEnd), ...records]);
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.#socket ? this.#socket.close(() => resolve()) : resolve()));
  }
}
