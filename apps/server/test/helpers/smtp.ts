import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  raw: string;
  subject: string;
  text: string;
}

/** A real SMTP server that accepts everything and keeps what it receives. */
export class SmtpSink {
  readonly mails: ReceivedMail[] = [];
  #server: SMTPServer;
  #waiters: Array<() => void> = [];
  port = 0;

  constructor() {
    this.#server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          this.mails.push({
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            raw,
            subject: subjectOf(raw),
            text: decodeBody(raw),
          });
          for (const wake of this.#waiters.splice(0)) wake();
          callback();
        });
      },
    });
  }

  /** Listens on `port` (0: any free one) and answers the SMTP URL to configure. */
  async start(port = 0): Promise<string> {
    await new Promise<void>((resolve, reject) => {
      this.#server.server.once('error', reject);
      this.#server.listen(port, '127.0.0.1', () => resolve());
    });
    this.port = (this.#server.server.address() as AddressInfo).port;
    return `smtp://127.0.0.1:${this.port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }

  /** The first mail to `to` (optionally matching) that arrives within the timeout. */
  async waitFor(
    to: string,
    match: (mail: ReceivedMail) => boolean = () => true,
    timeoutMs = 10_000,
  ): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.mails.find((m) => m.to.includes(to.toLowerCase()) && match(m));
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`No mail to ${to} within ${timeoutMs} ms (got ${this.mails.length} in all)`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }
}

/** The Subject header, unfolded (long subjects continue on indented lines). */
function subjectOf(raw: string): string {
  const headers = raw.slice(0, raw.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ');
  return /^Subject: (.*)$/m.exec(headers)?.[1]?.trim() ?? '';
}

/** The text part of a simple nodemailer message, quoted-printable decoded. */
function decodeBody(raw: string): string {
  const split = raw.indexOf('\r\n\r\n');
  const headers = raw.slice(0, split);
  let body = raw.slice(split + 4);
  if (/Content-Transfer-Encoding: quoted-printable/i.test(headers)) {
    body = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    body = Buffer.from(body, 'latin1').toString('utf8');
  } else if (/Content-Transfer-Encoding: base64/i.test(headers)) {
    body = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  }
  return body;
}

export const linkIn = (mail: ReceivedMail, pattern: RegExp): string => {
  const match = pattern.exec(mail.text);
  if (!match) throw new Error(`No link matching ${pattern} in mail:\n${mail.text}`);
  return match[0];
};
