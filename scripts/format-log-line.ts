/**
 * Turns one line of a child's output into a readable, prefixed line for `npm start`:
 *   {"level":30,"time":"…","node":"gateway","msg":"listening","port":8080}
 *   → [gateway] 12:00:01 INFO listening port=8080
 * Lines that are not pino JSON pass through with the prefix only.
 */

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const LEVEL_COLOURS: Record<string, number> = { TRACE: 90, DEBUG: 90, INFO: 32, WARN: 33, ERROR: 31, FATAL: 35 };
const NAME_COLOURS = [36, 35, 34, 33, 32, 96, 95, 94];
// fields every line has, or that the prefix already shows
const HIDDEN = new Set(['level', 'time', 'msg', 'node', 'pid', 'hostname', 'v']);

export interface FormatOptions {
  /** ANSI colours (when writing to a terminal). */
  colour: boolean;
  /** Index of the child, to give each a stable colour. */
  index?: number;
  /** Width the name is padded to, so messages line up. */
  width?: number;
}

const paint = (on: boolean, code: number, text: string) => (on ? `\u001b[${code}m${text}\u001b[0m` : text);

function clock(time: unknown): string {
  const date = typeof time === 'string' || typeof time === 'number' ? new Date(time) : new Date();
  const valid = Number.isNaN(date.getTime()) ? new Date() : date;
  return valid.toTimeString().slice(0, 8);
}

function valueText(value: unknown): string {
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  if (value instanceof Object) return JSON.stringify(value);
  return String(value);
}

export function formatLogLine(name: string, line: string, options: FormatOptions): string {
  const prefix = paint(options.colour, NAME_COLOURS[(options.index ?? 0) % NAME_COLOURS.length]!, `[${name}]`.padEnd((options.width ?? 0) + 2));
  let record: Record<string, unknown> | null = null;
  if (line.startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(line);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) record = parsed as Record<string, unknown>;
    } catch {
      record = null;
    }
  }
  if (!record) return `${prefix} ${line}`;

  const level = typeof record.level === 'number' ? (LEVELS[record.level] ?? String(record.level)) : 'INFO';
  const parts = [prefix, paint(options.colour, 90, clock(record.time)), paint(options.colour, LEVEL_COLOURS[level] ?? 0, level.padEnd(5))];
  if (record.msg !== undefined) parts.push(String(record.msg));
  let stack: string | undefined;
  for (const [key, value] of Object.entries(record)) {
    if (HIDDEN.has(key) || value === undefined) continue;
    if ((key === 'err' || key === 'error') && value && typeof value === 'object') {
      const err = value as { message?: unknown; stack?: unknown; type?: unknown };
      parts.push(`${key}=${valueText(err.message ?? err.type ?? value)}`);
      if (typeof err.stack === 'string') stack = err.stack;
      continue;
    }
    parts.push(paint(options.colour, 90, `${key}=`) + valueText(value));
  }
  const text = parts.join(' ');
  if (!stack || (typeof record.level === 'number' && record.level < 50)) return text;
  return `${text}\n${stack
    .split('\n')
    .map((l) => `${prefix}   ${l}`)
    .join('\n')}`;
}
