import type { Logger } from 'pino';

/**
 * How long a process may drain after SIGTERM before it exits 1. Process managers must wait at
 * least this long before they kill (deploy/: TimeoutStopSec, terminationGracePeriodSeconds).
 */
export const DRAIN_TIMEOUT_MS = 15_000;

/**
 * Runs `drain` once on SIGTERM or SIGINT, then exits 0 (or 1 if draining failed or took longer
 * than `timeoutMs`). A second signal exits at once.
 */
export function onShutdown(log: Logger, drain: () => Promise<void>, timeoutMs = DRAIN_TIMEOUT_MS): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    log.info({ signal }, 'draining');
    const timer = setTimeout(() => {
      log.error('drain timed out');
      process.exit(1);
    }, timeoutMs);
    timer.unref();
    drain().then(
      () => {
        log.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        log.error({ err: error }, 'drain failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

/** Tells a supervising parent (`npm start`, the test harness) which ports a process bound. */
export function announce(info: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify({ msg: 'listening', ...info })}\n`);
}

/**
 * Awaits a start-up step (migrations, the NATS connection); if it fails, logs `what` plainly and
 * exits 1, so a supervisor (npm start, systemd) restarts the process with the cause in its log.
 */
export async function orExit<T>(log: Logger, what: string, step: Promise<T>): Promise<T> {
  try {
    return await step;
  } catch (error) {
    log.fatal({ err: error }, what);
    process.exit(1);
  }
}

/**
 * A connection URL (or a comma-separated list of them, as NATS_URL allows) fit for a log line:
 * the password removed, and for NATS also a user name without a password, which is how a NATS
 * token is written (`nats://<token>@host`). Nothing of an unparseable URL is shown.
 */
export function redactUrl(url: string): string {
  // a Postgres URL's commas separate hosts (libpq's form), not URLs: one user and password for all
  const postgres = /^(postgres(?:ql)?:\/\/)([^@/?#]*)@(.*)$/.exec(url.trim());
  if (postgres) return `${postgres[1]}${postgres[2]!.split(':')[0]}@${postgres[3]}`;
  return url
    .split(',')
    .map((part) => {
      try {
        const parsed = new URL(part.trim());
        if (parsed.password !== '') parsed.password = '';
        else if (/^(nats|tls|wss?):$/.test(parsed.protocol)) parsed.username = '';
        return parsed.toString();
      } catch {
        return '(unparseable URL)';
      }
    })
    .join(',');
}
