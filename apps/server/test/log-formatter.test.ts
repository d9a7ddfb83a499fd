import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createLogger, type LogFormat } from '../src/lib/log.js';
import { LOG_LIMITS } from '../src/lib/log-values.js';
import { captureLog } from './helpers/log-capture.js';

/**
 * The log formatter never throws, whatever it is handed: it prints what can be printed. A throw
 * there once took the whole server down (Fastify logs `{res: reply}`, a circular object, when a
 * download's client goes away), so every case runs against the real logger in both formats.
 */
const FORMATS: LogFormat[] = ['text', 'json'];

/** Logs `fields` with `message` at info; answers the one line written (parsed, for JSON). */
async function logged(format: LogFormat, fields: unknown, message = 'hello') {
  const { logger, lines, settled } = captureLog(format);
  expect(() => logger.info(fields as object, message)).not.toThrow();
  await settled();
  expect(lines).toHaveLength(1);
  const line = lines[0]!;
  expect(line.endsWith('\n')).toBe(true);
  return { line, record: format === 'json' ? JSON.parse(line) : undefined };
}

/** The response Fastify hands its logger when a stream's client goes away: socket ⇄ response. */
function liveResponse() {
  const socket = new Socket();
  const res = new ServerResponse(new IncomingMessage(socket));
  res.assignSocket(socket);
  return res;
}

describe('the log formatter, with what it cannot simply stringify', () => {
  for (const format of FORMATS) {
    describe(`(${format})`, () => {
      it('prints a circular object, marking where it loops', async () => {
        const job: Record<string, unknown> = { id: 7, name: 'batch' };
        job.self = job;
        job.tasks = [{ job }];
        const { line, record } = await logged(format, { job, after: 'kept' });
        if (record) {
          expect(record.job).toEqual({
            id: 7,
            name: 'batch',
            self: '[Circular]',
            tasks: [{ job: '[Circular]' }],
          });
          expect(record.after).toBe('kept');
        } else
          expect(line).toContain(
            'job={"id":7,"name":"batch","self":"[Circular]","tasks":[{"job":"[Circular]"}]} after=kept',
          );
      });

      it("prints Fastify's records of a cut stream ({req, res: reply}, live objects) as pino does", async () => {
        const res = liveResponse();
        res.statusCode = 206;
        const request = { raw: res.req, method: 'GET', url: '/x?signature=SECRET' };
        const reply = { raw: res, statusCode: 206, request };
        (request as Record<string, unknown>).reply = reply;
        const { line, record } = await logged(
          format,
          { req: request, res: reply, socket: res.socket },
          'stream closed prematurely',
        );
        expect(line).not.toContain('SECRET');
        if (record)
          expect(record).toMatchObject({
            req: { method: 'GET', url: '/x' },
            res: { statusCode: 206 },
            socket: '[Socket]',
          });
        else
          expect(line).toMatch(
            / INFO {2}stream closed prematurely req=\{"method":"GET","url":"\/x"\} res=\{"statusCode":206\} socket="\[Socket\]"\n$/,
          );
      });

      it('prints a BigInt as its digits', async () => {
        const { line, record } = await logged(format, { bytes: 2n ** 70n, nested: { n: -5n } });
        if (record) expect(record).toMatchObject({ bytes: '1180591620717411303424', nested: { n: '-5' } });
        else expect(line).toContain('bytes=1180591620717411303424 nested={"n":"-5"}');
      });

      it('prints an error with the chain of its causes', async () => {
        const root = Object.assign(new Error('connect ECONNREFUSED 10.0.0.9:8786'), { code: 'ECONNREFUSED' });
        const middle = new Error('the scheduler cannot be reached', { cause: root });
        const top = new Error('cluster 12 did not start', { cause: middle });
        const { line, record } = await logged(format, { err: top }, 'reconcile failed');
        if (record) {
          expect(record.err).toMatchObject({
            type: 'Error',
            message: 'cluster 12 did not start',
            cause: {
              message: 'the scheduler cannot be reached',
              cause: { message: 'connect ECONNREFUSED 10.0.0.9:8786', code: 'ECONNREFUSED' },
            },
          });
          expect(record.err.cause.cause.stack).toContain('log-formatter.test.ts');
        } else {
          expect(line).toMatch(
            / INFO {2}reconcile failed err="cluster 12 did not start"\n {4}Error: cluster 12/,
          );
          expect(line).toMatch(/\n {4}caused by: Error: the scheduler cannot be reached\n {8}at /);
          expect(line).toMatch(/\n {4}caused by: Error: connect ECONNREFUSED 10\.0\.0\.9:8786\n/);
          expect(line.indexOf('cannot be reached')).toBeLessThan(line.indexOf('caused by: Error: connect'));
        }
      });

      it('prints an error whose cause loops back, and a cause that is no error', async () => {
        const a = new Error('a');
        const b = new Error('b', { cause: a });
        (a as { cause?: unknown }).cause = b;
        const odd = new Error('odd', { cause: { status: 503 } });
        const { line, record } = await logged(format, { err: a, odd });
        if (record) {
          expect(record.err.cause.message).toBe('b');
          expect(record.err.cause.cause).toBe('[Circular]');
          expect(record.odd.cause).toEqual({ status: 503 });
        } else {
          expect(line).toMatch(/caused by: Error: b\n[\s\S]*caused by: \[Circular\]\n/);
          expect(line).toContain('caused by: {"status":503}');
        }
      });

      it('prints the errors of an AggregateError', async () => {
        const all = new AggregateError(
          [new Error('first refused'), new Error('second refused')],
          'all failed',
        );
        const { line, record } = await logged(format, { err: all });
        if (record)
          expect(record.err.errors.map((e: { message: string }) => e.message)).toEqual([
            'first refused',
            'second refused',
          ]);
        else
          expect(line).toMatch(
            /AggregateError: all failed[\s\S]*\[1\] Error: first refused[\s\S]*\[2\] Error: second refused/,
          );
      });

      it('prints what it can of an object whose getter throws', async () => {
        const sneaky = {
          id: 3,
          get state(): string {
            throw new Error('state is gone');
          },
        };
        const { line, record } = await logged(format, { sneaky, after: 1 });
        if (record)
          expect(record).toMatchObject({ sneaky: { id: 3, state: '[unreadable: state is gone]' }, after: 1 });
        else expect(line).toContain('sneaky={"id":3,"state":"[unreadable: state is gone]"} after=1');
      });

      it('prints a field whose own getter throws, and the fields beside it', async () => {
        const fields = { before: 'a', after: 'b' };
        Object.defineProperty(fields, 'middle', {
          enumerable: true,
          get() {
            throw new Error('no middle');
          },
        });
        const { line, record } = await logged(format, fields);
        if (record)
          expect(record).toMatchObject({ before: 'a', middle: '[unreadable: no middle]', after: 'b' });
        else expect(line).toContain('before=a after=b middle="[unreadable: no middle]"');
      });

      it('prints a note for an object whose toJSON throws', async () => {
        const broken = {
          toJSON: () => {
            throw new Error('cannot serialise');
          },
        };
        const fine = { toJSON: () => ({ as: 'json' }) };
        const { line, record } = await logged(format, { broken, fine, when: new Date(0) });
        if (record)
          expect(record).toMatchObject({
            broken: '[toJSON failed: cannot serialise]',
            fine: { as: 'json' },
            when: '1970-01-01T00:00:00.000Z',
          });
        else
          expect(line).toContain(
            'broken="[toJSON failed: cannot serialise]" fine={"as":"json"} when=1970-01-01T00:00:00.000Z',
          );
      });

      it('prints an error whose message and stack cannot be read', async () => {
        const err = new Error('hidden');
        Object.defineProperty(err, 'stack', {
          get() {
            throw new Error('no stack');
          },
        });
        Object.defineProperty(err, 'message', {
          get() {
            throw new Error('no message');
          },
        });
        const { line, record } = await logged(format, { err });
        if (record) expect(record.err).toMatchObject({ type: 'Error', message: '[unreadable: no message]' });
        else expect(line).toContain('err="[unreadable: no message]"');
      });

      it('prints a note for a proxy that throws at every touch, as a field and as the record', async () => {
        const hostile = new Proxy(
          {},
          {
            get: () => {
              throw new Error('trap');
            },
            ownKeys: () => {
              throw new Error('no keys');
            },
            getPrototypeOf: () => {
              throw new Error('no prototype');
            },
          },
        );
        const { line, record } = await logged(format, { hostile, ok: true });
        if (record)
          expect(record).toMatchObject({ hostile: expect.stringMatching(/^\[unreadable: /), ok: true });
        else expect(line).toMatch(/hostile="\[unreadable: [^"]+\]" ok=true/);
        const whole = await logged(format, hostile, 'still said');
        expect(whole.line).toContain('still said');
        expect(whole.line).toContain('unreadable: no keys');
      });

      it('bounds a huge record: long strings, wide and deep objects, long arrays, many fields', async () => {
        let deep: Record<string, unknown> = { bottom: true };
        for (let i = 0; i < 200; i++) deep = { deeper: deep };
        const wide = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, i]));
        const many = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`f${i}`, 'x'.repeat(1000)]));
        const fields = {
          text: 'y'.repeat(5_000_000),
          wide,
          deep,
          list: Array.from({ length: 1_000_000 }, (_, i) => i),
          map: new Map(Array.from({ length: 10_000 }, (_, i) => [i, { i }])),
          set: new Set(Array.from({ length: 10_000 }, (_, i) => i)),
          buffer: Buffer.alloc(10_000_000),
          ...many,
        };
        const started = performance.now();
        const { line, record } = await logged(format, fields, `a long message ${'z'.repeat(100_000)}`);
        expect(performance.now() - started).toBeLessThan(2_000);
        expect(line.length).toBeLessThan(LOG_LIMITS.record * 2);
        expect(line).toContain('more characters]');
        expect(line).toContain('99960 more keys');
        expect(line).toContain('999960 more items');
        expect(line).toContain('[Buffer 10000000 bytes]');
        if (record) {
          expect(record.msg).toMatch(/^a long message z+… \[\d+ more characters\]$/);
          expect(record.text).toMatch(/^y+… \[4991808 more characters\]$/);
          expect(JSON.stringify(record.deep)).toContain('"[Object]"');
        } else expect(line).toContain('[Object]');
      });

      it('prints symbols, functions, non-finite numbers and null-prototype objects', async () => {
        const bare = Object.assign(Object.create(null), { x: 1 });
        const { line, record } = await logged(format, {
          sym: Symbol('s'),
          fn: function named() {},
          nan: Number.NaN,
          inf: Number.POSITIVE_INFINITY,
          bare,
        });
        if (record)
          expect(record).toMatchObject({
            sym: 'Symbol(s)',
            fn: '[Function named]',
            nan: 'NaN',
            inf: 'Infinity',
            bare: { x: 1 },
          });
        else
          expect(line).toContain('sym="Symbol(s)" fn="[Function named]" nan=NaN inf=Infinity bare={"x":1}');
      });

      it('keeps a long block (a kept email the operator must read) whole, up to the bound of a record', async () => {
        const block = `Hello,\n\n${'a line of the mail\n'.repeat(1000)}http://cumulus.test/confirm/abc`;
        const { line, record } = await logged(format, { to: 'a@example.com', block }, 'email kept');
        if (record) expect(record.block).toBe(block);
        else expect(line).toContain('│ http://cumulus.test/confirm/abc\n');
      });

      it('hides credentials at any depth', async () => {
        const { line } = await logged(format, {
          request: { headers: { authorization: 'Token SECRET-1' }, body: { password: 'SECRET-2' } },
        });
        expect(line).not.toContain('SECRET');
        expect(line).toContain('[hidden]');
      });

      it("hides credentials in a child logger's bindings", async () => {
        const { logger, lines, settled } = captureLog(format);
        logger.child({ reqId: 'r-9', auth: { token: 'SECRET-3' } }).info({ apiKey: 'SECRET-4' }, 'bound');
        await settled();
        expect(lines.join('')).not.toContain('SECRET');
        expect(lines.join('')).toContain('r-9');
      });

      it("writes a key once when a call's field repeats a binding: the later value wins", async () => {
        const { logger, lines, settled } = captureLog(format);
        const child = logger.child({ reqId: 'r-1', step: 'bound' }).child({ step: 'rebound' });
        child.info({ reqId: 'r-2', n: 1 }, 'twice');
        child.info('once');
        await settled();
        expect(lines).toHaveLength(2);
        const [twice, once] = lines as [string, string];
        for (const line of lines)
          for (const key of ['reqId', 'step']) expect(line.split(key)).toHaveLength(2);
        if (format === 'json') {
          expect(JSON.parse(twice)).toMatchObject({ reqId: 'r-2', step: 'rebound', n: 1, msg: 'twice' });
          expect(JSON.parse(once)).toMatchObject({ reqId: 'r-1', step: 'rebound', msg: 'once' });
        } else {
          expect(twice).toMatch(/ twice reqId=r-2 n=1 step=rebound\n$/);
          expect(once).toMatch(/ once reqId=r-1 step=rebound\n$/);
        }
      });

      it("hides the password of a URL in the message, as in a field's value", async () => {
        const url = 'https://ada:SECRET-5@pypi.example/simple';
        const { line, record } = await logged(format, { index: url }, `pip reads ${url}`);
        expect(line).not.toContain('SECRET');
        if (record) expect(record.msg).toBe('pip reads https://ada:****@pypi.example/simple');
        else expect(line).toContain('pip reads https://ada:****@pypi.example/simple');
      });

      it('cuts a long message once, saying how many characters it left out', async () => {
        const message = `a long message ${'z'.repeat(100_000)}`;
        const { line, record } = await logged(format, {}, message);
        const left = message.length - LOG_LIMITS.chars;
        const shown = record ? record.msg : line.slice(line.indexOf(' a long') + 1, -1);
        expect(shown).toBe(`${message.slice(0, LOG_LIMITS.chars)}… [${left} more characters]`);
      });
    });
  }

  it('takes bindings that throw, and a message that is a thrown non-error value', async () => {
    const { logger, lines, settled } = captureLog('text');
    const bindings = {};
    Object.defineProperty(bindings, 'reqId', {
      enumerable: true,
      get() {
        throw new Error('no id');
      },
    });
    const child = logger.child(bindings);
    expect(() => child.warn('from the child')).not.toThrow();
    const noString = {
      toString: () => {
        throw new Error('no string');
      },
    };
    expect(() => logger.error(noString as unknown as string)).not.toThrow();
    await settled();
    expect(lines[0]).toMatch(/ WARN {2}from the child reqId="\[unreadable: no id\]"\n$/);
    expect(lines).toHaveLength(2);
  });

  it('loses the lines, not the process, when writing them fails', async () => {
    const logger = createLogger({
      level: 'info',
      format: 'text',
      write: () => {
        throw new Error('EPIPE: the log collector went away');
      },
    });
    expect(() => logger.error({ n: 1 }, 'urgent, written at once')).not.toThrow();
    logger.info('batched');
    await new Promise((resolve) => setImmediate(resolve));
  });
});
