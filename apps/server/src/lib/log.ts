import type { FastifyBaseLogger } from 'fastify';
import { Budget, LOG_LIMITS, type Plain, thrownText } from './log-values.js';

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export type LogFormat = 'text' | 'json';

const RANK: Record<string, number> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
  silent: 99,
};
const TEXT_LEVEL: Record<LogLevel, string> = {
  trace: 'TRACE',
  debug: 'DEBUG',
  info: 'INFO ',
  warn: 'WARN ',
  error: 'ERROR',
  fatal: 'FATAL',
};

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

class Logger {
  constructor(
    private readonly sink: Sink,
    private readonly format: LogFormat,
    private readonly threshold: number,
    private readonly bindings: Fields,
    readonly level: string,
    private readonly textSink: Sink,
  ) {}

  child(bindings: Fields, options?: { level?: string }): Logger {
    const level = options?.level ?? this.level;
    return new Logger(
      this.sink,
      this.format,
      RANK[level] ?? this.threshold,
      { ...this.bindings, ...Object.fromEntries(entriesOf(bindings ?? {})) },
      level,
      this.textSink,
    );
  }

  /**
   * What the operator must read whatever level they chose (short of `silent`): an info record
   * with its `block` framed. With JSON lines the record is written whole, and as readable text
   * (the framed block) to stderr beside it, where an escaped string would hide a link.
   */
  announce(fields: Fields, message: string): void {
    if (this.threshold >= RANK.silent!) return;
    const text = this.line('text', 'info', message, fields);
    if (this.format === 'json') {
      this.sink.add(this.line('json', 'info', message, fields), true);
      this.textSink.add(text, true);
    } else this.sink.add(text, true);
  }

  silent(): void {}

  isLevelEnabled(level: string): boolean {
    return (RANK[level] ?? 0) >= this.threshold;
  }

  /** pino's calling conventions: (fields, message), (error, message?) or (message). */
  write(level: LogLevel, first: unknown, rest: unknown[]): void {
    const rank = RANK[level]!;
    if (rank < this.threshold) return;
    let fields: Fields | undefined;
    let message: string;
    if (isError(first)) {
      fields = { err: first };
      message = typeof rest[0] === 'string' ? rest[0] : thrownText(first);
    } else if (first !== null && typeof first === 'object') {
      fields = first as Fields;
      message = typeof rest[0] === 'string' ? rest[0] : '';
    } else {
      message = first === undefined ? '' : thrownText(first);
    }
    this.sink.add(this.line(this.format, level, message, fields), rank >= RANK.error!);
  }

  /** One record as a line; should formatting fail all the same, a line saying so, never a throw. */
  private line(format: LogFormat, level: LogLevel, message: string, fields: Fields | undefined): string {
    try {
      return format === 'json'
        ? jsonLine(level, message, this.bindings, fields)
        : textLine(level, message, this.bindings, fields);
    } catch (err) {
      const msg = `${message.slice(0, LOG_LIMITS.chars)} [the record's fields could not be written: ${thrownText(err)}]`;
      return format === 'json'
        ? `${JSON.stringify({ time: isoNow(), level, msg })}\n`
        : `${isoNow()} ${TEXT_LEVEL[level]} ${msg}\n`;
    }
  }
}

// trace(...) ... fatal(...), on the prototype: Fastify makes a child logger per request.
const proto = Logger.prototype as unknown as Record<LogLevel, (...args: unknown[]) => void>;
for (const level of LOG_LEVELS) {
  proto[level] = function (this: Logger, first?: unknown, ...rest: unknown[]) {
    this.write(level, first, rest);
  };
}

/** A logger Fastify takes as `loggerInstance`: readable text or one JSON object a line. */
export function createLogger(options: LoggerOptions): FastifyBaseLogger {
  const sink = new Sink(options.write ?? streamWriter(process.stdout));
  if (!options.write) process.on('exit', sink.flush);
  const textSink = new Sink(options.writeText ?? streamWriter(process.stderr));
  return new Logger(
    sink,
    options.format,
    RANK[options.level] ?? RANK.info!,
    {},
    options.level,
    textSink,
  ) as unknown as FastifyBaseLogger;
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
 * Writes what the operator must read at any level but `silent` (see Logger.announce); a logger
 * that is not ours (Fastify's own, when none is given) gets an info record.
 */
export function announce(log: FastifyBaseLogger, fields: Fields, message: string): void {
  const ours = log as unknown as Partial<Pick<Logger, 'announce'>>;
  if (typeof ours.announce === 'function') ours.announce(fields, message);
  else log.info(fields, message);
}

function jsonLine(level: LogLevel, msg: string, bindings: Fields, fields: Fields | undefined): string {
  const budget = new Budget();
  const record: Record<string, Plain> = { time: isoNow(), level };
  for (const [key, value] of entriesOf(bindings)) record[key] = budget.field(key, value);
  if (fields)
    for (const [key, value] of entriesOf(fields))
      record[key] =
        key === BLOCK && typeof value === 'string'
          ? budget.text(value, LOG_LIMITS.record)
          : budget.field(key, value);
  record.msg = budget.text(msg);
  return `${JSON.stringify(record)}\n`;
}

/**
 * `time LEVEL message key=value ...`; a message's further lines and error stacks (with what caused
 * them) follow, indented. A `block` field (a whole email, say) is not a key=value: it follows the
 * line in a frame, so it reads as one piece among the request lines around it.
 */
function textLine(level: LogLevel, msg: string, bindings: Fields, fields: Fields | undefined): string {
  const budget = new Budget();
  const message = budget.text(msg);
  const nl = message.indexOf('\n');
  let line = `${isoNow()} ${TEXT_LEVEL[level]} ${nl < 0 ? message : message.slice(0, nl)}`;
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
  // As {...fields, ...bindings}: the request's bindings win over a field of the same name.
  const given = fields ? entriesOf(fields) : [];
  for (const [key, value] of given) add(key, key in bindings ? bindings[key] : value);
  for (const [key, value] of entriesOf(bindings)) if (!given.some(([k]) => k === key)) add(key, value);
  return `${line}${stack}\n`;
}

type ShownError = { type: Plain; message: Plain; stack?: Plain; cause?: Plain; errors?: Plain };

function isShownError(shown: Plain | undefined): shown is ShownError {
  return (
    typeof shown === 'object' &&
    shown !== null &&
    !Array.isArray(shown) &&
    'type' in shown &&
    'message' in shown
  );
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

function isError(value: unknown): boolean {
  try {
    return value instanceof Error;
  } catch {
    return false;
  }
}

/** A record's own fields, as many as a record shows; a field that cannot be read says why. */
function entriesOf(fields: Fields): [string, unknown][] {
  let keys: string[];
  try {
    keys = Object.keys(fields);
  } catch (err) {
    return [['fields', `[unreadable: ${thrownText(err)}]`]];
  }
  const out = keys.slice(0, LOG_LIMITS.width).map((key): [string, unknown] => {
    try {
      return [key, fields[key]];
    } catch (err) {
      return [key, `[unreadable: ${thrownText(err)}]`];
    }
  });
  if (keys.length > LOG_LIMITS.width) out.push(['…', `${keys.length - LOG_LIMITS.width} more fields`]);
  return out;
}

const BLOCK = 'block';
const RULE = '─'.repeat(72);
const framed = (block: string) =>
  `┌${RULE}\n${block
    .split('\n')
    .map((l) => (l === '' ? '│' : `│ ${l}`))
    .join('\n')}\n└${RULE}`;

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

const quote = (s: string) => (/^[\w./:@+-]*$/.test(s) && s !== '' ? s : JSON.stringify(s));
const indent = (s: string) =>
  s
    .split('\n')
    .map((l) => (l === '' ? l : `    ${l}`))
    .join('\n');
