import { pino, type Logger } from 'pino';

export type { Logger } from 'pino';

/** One JSON-lines logger per process; `npm start` prefixes and colours the lines per child. */
export function createLogger(options: { level: string; name: string }): Logger {
  return pino({
    level: options.level,
    base: { node: options.name },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      // a backstop: secrets are not passed to the logger in the first place
      paths: [
        'req.headers.authorization',
        'req.headers["x-service-key"]',
        'req.headers.cookie',
        '*.secretKey',
        '*.secret',
        '*.previousSecret',
        '*.token',
        '*.password',
        '*.pass',
        '*.authorization',
      ],
      censor: '[redacted]',
    },
  });
}
