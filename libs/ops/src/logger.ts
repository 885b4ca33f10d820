import { pino, type Logger } from 'pino';

export type { Logger } from 'pino';

/** One JSON-lines logger per process; `npm start` prefixes and colours the lines per child. */
export function createLogger(options: { level: string; name: string }): Logger {
  return pino({
    level: options.level,
    base: { node: options.name },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: ['req.headers.authorization', 'req.headers["x-service-key"]', '*.secretKey', '*.secret', '*.token'],
      censor: '[redacted]',
    },
  });
}
