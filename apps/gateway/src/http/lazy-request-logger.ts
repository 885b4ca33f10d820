/**
 * The request logger (`request.log`), made only when a request logs. Fastify makes a pino child
 * (with the request id) for every request; pino builds its bindings text, redaction included,
 * at once: ~1 % of the gateway's CPU on the publish path, for requests that, with request logging
 * off, almost never log. The child is made at the first call and then used as is; a level below
 * the logger's is checked without making it.
 */
import type { FastifyBaseLogger } from 'fastify';

type Bindings = Record<string, unknown>;
type ChildOptions = Parameters<FastifyBaseLogger['child']>[1];

/** pino's level values; an unknown (custom) level is treated as enabled. */
const LEVEL_VALUES: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity };
type Level = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';

export class LazyRequestLogger {
  readonly #parent: FastifyBaseLogger;
  readonly #bindings: Bindings;
  readonly #options: ChildOptions;
  #child: FastifyBaseLogger | undefined;

  constructor(parent: FastifyBaseLogger, bindings: Bindings, options: ChildOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  get level(): string {
    return this.#child?.level ?? this.#options?.level ?? this.#parent.level;
  }

  set level(level: string) {
    this.#logger().level = level;
  }

  trace(...args: unknown[]): void {
    this.#log('trace', args);
  }
  debug(...args: unknown[]): void {
    this.#log('debug', args);
  }
  info(...args: unknown[]): void {
    this.#log('info', args);
  }
  warn(...args: unknown[]): void {
    this.#log('warn', args);
  }
  error(...args: unknown[]): void {
    this.#log('error', args);
  }
  fatal(...args: unknown[]): void {
    this.#log('fatal', args);
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
    return this.#logger().child(bindings, options);
  }

  #logger(): FastifyBaseLogger {
    this.#child ??= this.#parent.child(this.#bindings, this.#options);
    return this.#child;
  }

  #log(level: Level, args: unknown[]): void {
    // pino's own check, without making the child: a disabled level costs nothing
    if (!this.#child && (LEVEL_VALUES[level] ?? Infinity) < (LEVEL_VALUES[this.level] ?? -Infinity)) return;
    (this.#logger()[level] as (...a: unknown[]) => void)(...args);
  }
}

/** Fastify's `childLoggerFactory`: a LazyRequestLogger instead of a pino child per request. */
export function lazyChildLoggerFactory(logger: FastifyBaseLogger, bindings: Bindings, options: ChildOptions): FastifyBaseLogger {
  return new LazyRequestLogger(logger, bindings, options) as unknown as FastifyBaseLogger;
}
