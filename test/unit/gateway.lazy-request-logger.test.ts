import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { lazyChildLoggerFactory } from '../../apps/gateway/src/http/lazy-request-logger.ts';

function parentLogger(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
      done();
    },
  });
  const logger = pino({ level }, stream);
  let children = 0;
  const child = logger.child.bind(logger);
  logger.child = ((...args: Parameters<typeof child>) => {
    children++;
    return child(...args);
  }) as typeof logger.child;
  return { logger: logger as unknown as FastifyBaseLogger, lines, children: () => children };
}

test('no child logger is made for a request that does not log', () => {
  const parent = parentLogger('info');
  const log = lazyChildLoggerFactory(parent.logger, { reqId: 'req-1' }, {});
  log.debug({ a: 1 }, 'below the level');
  log.trace('below the level');
  assert.equal(parent.children(), 0);
  assert.equal(log.level, 'info');
  assert.equal(parent.lines.length, 0);
});

test('a request that logs gets its lines with the request id, from one child', async () => {
  const parent = parentLogger('info');
  const log = lazyChildLoggerFactory(parent.logger, { reqId: 'req-2' }, {});
  log.info({ path: '/v1/x' }, 'refused');
  log.warn('again');
  log.debug('still below');
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(parent.children(), 1);
  assert.deepEqual(
    parent.lines.map((l) => [l.reqId, l.msg, l.path]),
    [
      ['req-2', 'refused', '/v1/x'],
      ['req-2', 'again', undefined],
    ],
  );
});

test('a route log level is honoured without a child until something logs at it', async () => {
  const parent = parentLogger('info');
  const log = lazyChildLoggerFactory(parent.logger, { reqId: 'req-3' }, { level: 'debug' });
  assert.equal(log.level, 'debug');
  assert.equal(parent.children(), 0);
  log.debug('now logged');
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(
    parent.lines.map((l) => [l.reqId, l.msg]),
    [['req-3', 'now logged']],
  );
});
