import type { FastifyBaseLogger } from 'fastify';
import { type Logger, pino } from 'pino';
import {
  BLOCK,
  Budget,
  cut,
  entriesOf,
  isError,
  LOG_LIMITS,
  type Plain,
  plainFields,
  thrownText,
} from './log-values.js';

export type LogFormat = 'text' | 'json';

export interface LoggerOptions {
  level: string;
  format: LogFormat;
  /** Where lines go; stdout by default. Called with whole lines, batched. */
  write?: (chunk: string) => void;
  /**
   * Where an announcement is written as readable text too when lines are JSON (see `announce`);
   * stderr by default.
   */
  writeText?: (chunk: string) => void;
}

/**
 * Lines are batched and written once per event-loop turn (stdout writes are synchronous on
 * Linux), errors at once; whatever is pending is written when the process exits. A write that
 * fails loses its lines, never the process.
 */
class Sink {
  private pending: string[] = [];
  private scheduled = false;

  constructor(private readonly out: (chunk: string) => void) {}

  add(line: string, urgent: boolean): void {
    this.pending.push(line);
    if (urgent || this.pending.length >= 256) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flush);
    }
  }

  readonly flush = (): void => {
    this.scheduled = false;
    if (this.pending.length === 0) return;
    const chunk = this.pending.join('');
    this.pending = [];
    try {
      this.out(chunk);
    } catch {}
  };
}

type Fields = Record<string, unknown>;
/** A logger's bindings and its parents', as written (see `child` in createLogger). */
const BINDINGS = Symbol('bindings');
type Bound = { [BINDINGS]?: Record<string, Plain> };

/** Set while `announce` writes: its record goes out at once, and as text beside JSON lines. */
let announcing = false;

/**
 * A pino logger Fastify takes as `loggerInstance`: readable text or one JSON object a line. pino
 * decides levels, children and calling conventions; its `logMethod` hook writes each record, its
 * fields and bindings as log-values.ts converts them (JSON lines through pino, text lines itself:
 * see `textRecord`), so no call throws, whatever it logs.
 */
export function createLogger(options: LoggerOptions): FastifyBaseLogger {
  const sink = new Sink(options.write ?? streamWriter(process.stdout));
  if (!options.write) process.on('exit', sink.flush);
  const textSink = new Sink(options.writeText ?? streamWriter(process.stderr));
  const json = options.format === 'json';
  // JSON lines are pino's; it hands them here with the record's level (`pino.metadata`).
  const destination = {
    [pino.symbols.needsMetadataGsym]: true,
    write(this: { lastLevel: number }, line: string) {
      sink.add(line, announcing || this.lastLevel >= ERROR);
    },
  };
  const logger = pino(
    {
      level: options.level,
      base: null,
      timestamp: () => `,"time":"${isoNow()}"`,
      serializers: { err: (err) => err }, // converted already (see `jsonRecord`)
      formatters: { level: (label) => ({ level: label }) },
      hooks: { logMethod: json ? jsonRecord(textSink) : textRecord(sink) },
    },
    destination as pino.DestinationStream,
  );
  // Bindings are converted as fields are, once per child, and kept here, not given to pino: pino
  // would write a child's bindings before the call's fields even where a field repeats one (and a
  // grandchild's after its parent's), a key twice in one line. Each record is written with
  // {...bindings, ...fields}: every key once, the later value winning (see `jsonRecord`).
  const child = logger.child as unknown as (this: Bound, bindings: Fields, options?: object) => Bound;
  (logger as { child: unknown }).child = function (this: Bound, bindings: Fields, childOptions?: object) {
    const plain = plainFields(bindings ?? {});
    const instance = child.call(this, {}, childOptions);
    instance[BINDINGS] = { ...this[BINDINGS], ...plain };
    return instance;
  };
  return logger as unknown as FastifyBaseLogger;
}

/**
 * pino's calling conventions, (fields, message), (error, message?) or (message), as
 * (fields, message); the fields as given (read later, guarded, by `entriesOf`).
 */
function conventions(args: unknown[]): [fields: object | undefined, message: string] {
  const [first, second] = args;
  if (isError(first)) return [{ err: first }, typeof second === 'string' ? second : thrownText(first)];
  if (first !== null && typeof first === 'object') return [first, typeof second === 'string' ? second : ''];
  return [undefined, first === undefined ? '' : thrownText(first)];
}

/**
 * JSON lines: pino's `logMethod` hook hands pino (fields, message) as log-values.ts converts them, so pino reads nothing raw (a throwing getter, a hostile proxy, a
 * circular value, a BigInt); should writing fail all the same, a line saying so, never a throw.
 * An announcement is also written as text, to `textSink`.
 */
function jsonRecord(textSink: Sink) {
  return function logMethod(this: Logger & Bound, args: unknown[], write: pino.LogFn, level: number): void {
    const [fields, message] = conventions(args);
    if (announcing) textSink.add(safeTextLine(level, message, this[BINDINGS] ?? {}, fields), true);
    // The message as text lines show it: URLs' credentials hidden, cut once.
    const shown = new Budget().text(message);
    const bindings = this[BINDINGS] ?? {};
    try {
      write.call(this, fields ? { ...bindings, ...plainFields(fields) } : bindings, shown);
    } catch (err) {
      write.call(this, bindings, `${shown} [the record's fields could not be written: ${thrownText(err)}]`);
    }
  };
}

/**
 * Text lines are written here, in pino's `logMethod` hook (pino has decided the level is on):
 * pino would build a JSON line only to have it dropped, so it is not called.
 */
function textRecord(sink: Sink) {
  return function logMethod(this: Bound, args: unknown[], _write: pino.LogFn, level: number): void {
    const [fields, message] = conventions(args);
    sink.add(safeTextLine(level, message, this[BINDINGS] ?? {}, fields), announcing || level >= ERROR);
  };
}

const ERROR = pino.levels.values.error!;
const LEVEL_TEXT: Record<number, string> = Object.fromEntries(
  Object.entries(pino.levels.labels).map(([value, label]) => [value, label.toUpperCase().padEnd(5)]),
);

// Requests log many lines a millisecond: the time is formatted once per millisecond.
let clockMs = -1;
let clockText = '';
function isoNow(): string {
  const now = Date.now();
  if (now !== clockMs) {
    clockMs = now;
    clockText = new Date(now).toISOString();
  }
  return clockText;
}

/**
 * Writes to stdout or stderr until the stream fails (the pipe to a log collector closed, say):
 * from then on lines are dropped; a logging failure is no reason to stop serving.
 */
function streamWriter(stream: NodeJS.WriteStream): (chunk: string) => void {
  if (!watchedStreams.has(stream)) {
    watchedStreams.add(stream);
    stream.on('error', () => brokenStreams.add(stream));
  }
  return (chunk) => {
    if (!brokenStreams.has(stream)) stream.write(chunk);
  };
}
const watchedStreams = new WeakSet<NodeJS.WriteStream>();
const brokenStreams = new WeakSet<NodeJS.WriteStream>();

/**
 * Writes what the operator must read whatever level they chose (short of `silent`): an info
 * record with its `block` framed. With JSON lines the record is written whole, and as readable
 * text (the framed block) to stderr beside it, where an escaped string would hide a link.
 */
export function announce(log: FastifyBaseLogger, fields: Fields, message: string): void {
  if (log.level === 'silent') return;
  announcing = true;
  try {
    log.child({}, { level: 'info' }).info(fields, message);
  } finally {
    announcing = false;
  }
}

/**
 * `time LEVEL message key=value ...`; a message's further lines and error stacks (with what caused
 * them) follow, indented. A `block` field (a whole email, say) is not a key=value: it follows the
 * line in a frame, so it reads as one piece among the request lines around it.
 */
function textLine(
  level: number,
  msg: string,
  bindings: Record<string, Plain>,
  fields: object | undefined,
): string {
  const budget = new Budget();
  const message = budget.text(msg);
  const nl = message.indexOf('\n');
  let line = `${isoNow()} ${LEVEL_TEXT[level]} ${nl < 0 ? message : message.slice(0, nl)}`;
  let stack = nl < 0 ? '' : `\n${indent(message.slice(nl + 1))}`;
  const add = (key: string, value: unknown) => {
    if (value === undefined) return;
    if (key === BLOCK && typeof value === 'string') {
      // What the operator must read (a kept email and its links) may fill the whole record.
      stack += `\n${indent(framed(budget.text(value, LOG_LIMITS.record)))}`;
      return;
    }
    const shown = budget.field(key, value);
    if (isError(value) && isShownError(shown)) {
      line += ` ${key}=${quote(String(shown.message))}`;
      stack += `\n${indent(errorText(shown))}`;
    } else if (typeof shown === 'number') line += ` ${key}=${shown}`;
    else line += ` ${key}=${typeof shown === 'string' ? quote(shown) : JSON.stringify(shown)}`;
  };
  // As {...bindings, ...fields}, as JSON lines: each key once, a call's field winning over a binding.
  const given = fields ? entriesOf(fields) : [];
  for (const [key, value] of given) add(key, value);
  for (const key in bindings) if (!given.some(([k]) => k === key)) add(key, bindings[key]);
  return `${line}${stack}\n`;
}

/** `textLine`; should it fail all the same, the message and a note saying so, never a throw. */
function safeTextLine(
  level: number,
  message: string,
  bindings: Record<string, Plain>,
  fields: object | undefined,
) {
  try {
    return textLine(level, message, bindings, fields);
  } catch (err) {
    return `${isoNow()} ${LEVEL_TEXT[level]} ${cut(message)} [the record's fields could not be written: ${thrownText(err)}]\n`;
  }
}

type ShownError = { type: Plain; message: Plain; stack?: Plain; cause?: Plain; errors?: Plain };

function isShownError(shown: Plain | undefined): shown is ShownError {
  return typeof shown === 'object' && shown !== null && 'type' in shown && 'message' in shown;
}

/** An error's stack, then what caused it, link by link (and an AggregateError's errors). */
function errorText(err: ShownError): string {
  const head = typeof err.stack === 'string' ? err.stack : `${String(err.type)}: ${String(err.message)}`;
  const parts = [head];
  if (Array.isArray(err.errors))
    err.errors.forEach((each, i) => {
      parts.push(indent(`[${i + 1}] ${isShownError(each) ? errorText(each) : plainText(each)}`));
    });
  if (err.cause !== undefined)
    parts.push(`caused by: ${isShownError(err.cause) ? errorText(err.cause) : plainText(err.cause)}`);
  return parts.join('\n');
}

const plainText = (value: Plain) => (typeof value === 'string' ? value : JSON.stringify(value));
const RULE = '─'.repeat(72);
const framed = (block: string) =>
  `┌${RULE}\n${block
    .split('\n')
    .map((l) => (l === '' ? '│' : `│ ${l}`))
    .join('\n')}\n└${RULE}`;
const quote = (s: string) => (/^[\w./:@+-]*$/.test(s) && s !== '' ? s : JSON.stringify(s));
const indent = (s: string) =>
  s
    .split('\n')
    .map((l) => (l === '' ? l : `    ${l}`))
    .join('\n');
