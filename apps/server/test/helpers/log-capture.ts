import { createLogger, type LogFormat } from '../../src/lib/log.js';

/**
 * A real logger whose lines land in `lines` (after the event-loop turn that wrote them), and what
 * it writes as readable text beside JSON lines in `text`.
 */
export function captureLog(format: LogFormat, level = 'info') {
  const lines: string[] = [];
  const text: string[] = [];
  // A chunk holds whole records; each starts with its time (text) or a brace (json).
  const split = (chunk: string) => chunk.split(/(?<=\n)(?=\d{4}-\d\d-\d\dT|\{)/);
  const write = (chunk: string) => lines.push(...split(chunk));
  const writeText = (chunk: string) => text.push(...split(chunk));
  const logger = createLogger({ level, format, write, writeText });
  const settled = () => new Promise((resolve) => setImmediate(resolve));
  return { logger, lines, text, settled };
}
