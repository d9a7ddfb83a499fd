import type { FastifyBaseLogger } from 'fastify';

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
/** Field names never written, whatever a caller passes: credentials and secrets. */
const SECRET_FIELD = /authorization|cookie|password|secret|token|api[_-]?key|^key$/i;

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
 * Linux), errors at once; whatever is pending is written when the process exits.
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
    this.out(chunk);
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
      { ...this.bindings, ...bindings },
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
    const text = textLine('info', message, this.bindings, fields);
    if (this.format === 'json') {
      this.sink.add(jsonLine('info', message, this.bindings, fields), true);
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
    if (first instanceof Error) {
      fields = { err: first };
      message = typeof rest[0] === 'string' ? rest[0] : first.message;
    } else if (first !== null && typeof first === 'object') {
      fields = first as Fields;
      message = typeof rest[0] === 'string' ? rest[0] : '';
    } else {
      message = first === undefined ? '' : String(first);
    }
    const line =
      this.format === 'json'
        ? jsonLine(level, message, this.bindings, fields)
        : textLine(level, message, this.bindings, fields);
    this.sink.add(line, rank >= RANK.error!);
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
  const sink = new Sink(options.write ?? ((chunk) => process.stdout.write(chunk)));
  if (!options.write) process.on('exit', sink.flush);
  const textSink = new Sink(options.writeText ?? ((chunk) => process.stderr.write(chunk)));
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
 * Writes what the operator must read at any level but `silent` (see Logger.announce); a logger
 * that is not ours (Fastify's own, when none is given) gets an info record.
 */
export function announce(log: FastifyBaseLogger, fields: Fields, message: string): void {
  const ours = log as unknown as Partial<Pick<Logger, 'announce'>>;
  if (typeof ours.announce === 'function') ours.announce(fields, message);
  else log.info(fields, message);
}

function jsonLine(level: LogLevel, msg: string, bindings: Fields, fields: Fields | undefined): string {
  const record: Fields = { time: isoNow(), level, ...bindings };
  if (fields) for (const key of Object.keys(fields)) record[key] = present(key, fields[key]);
  record.msg = msg;
  return `${JSON.stringify(record)}\n`;
}

/**
 * `time LEVEL message key=value ...`; a message's further lines and error stacks follow, indented.
 * A `block` field (a whole email, say) is not a key=value: it follows the line in a frame, so it
 * reads as one piece among the request lines around it.
 */
function textLine(level: LogLevel, msg: string, bindings: Fields, fields: Fields | undefined): string {
  const nl = msg.indexOf('\n');
  let line = `${isoNow()} ${TEXT_LEVEL[level]} ${nl < 0 ? msg : msg.slice(0, nl)}`;
  let stack = nl < 0 ? '' : `\n${indent(msg.slice(nl + 1))}`;
  const add = (key: string, value: unknown) => {
    if (value === undefined) return;
    if (key === BLOCK && typeof value === 'string') {
      stack += `\n${indent(framed(value))}`;
      return;
    }
    const shown = present(key, value);
    if (value instanceof Error) {
      line += ` ${key}=${quote((shown as { message: string }).message)}`;
      if (value.stack) stack += `\n${indent(value.stack)}`;
    } else if (typeof shown === 'number') line += ` ${key}=${shown}`;
    else line += ` ${key}=${typeof shown === 'string' ? quote(shown) : JSON.stringify(shown)}`;
  };
  // As {...fields, ...bindings}: the request's bindings win over a field of the same name.
  if (fields) for (const key of Object.keys(fields)) add(key, key in bindings ? bindings[key] : fields[key]);
  for (const key of Object.keys(bindings)) if (!fields || !(key in fields)) add(key, bindings[key]);
  return `${line}${stack}\n`;
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

/** Whether a field name holds a credential; asked for every field of every line, so remembered. */
const secretNames = new Map<string, boolean>();
function isSecret(key: string): boolean {
  let secret = secretNames.get(key);
  if (secret === undefined) {
    secret = SECRET_FIELD.test(key);
    if (secretNames.size < 1000) secretNames.set(key, secret);
  }
  return secret;
}

/** A field as it may be written: secrets hidden, errors as their type, message and stack. */
function present(key: string, value: unknown): unknown {
  if (isSecret(key)) return '[hidden]';
  if (value instanceof Error) {
    const code = (value as { code?: unknown }).code;
    return { type: value.name, message: value.message, ...(code ? { code } : {}), stack: value.stack };
  }
  return value;
}

const quote = (s: string) => (/^[\w./:@+-]*$/.test(s) && s !== '' ? s : JSON.stringify(s));
const indent = (s: string) =>
  s
    .split('\n')
    .map((l) => (l === '' ? l : `    ${l}`))
    .join('\n');
