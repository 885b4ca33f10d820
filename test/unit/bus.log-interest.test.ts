/**
 * Live-log interest (libs/bus log-interest.ts): publishers send an environment's events only while
 * a gateway announces a logs socket of it; everything in the first seconds after start; nothing
 * changes for a connection that does not watch.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { NatsConnection } from 'nats';
import {
  ANNOUNCE_MS,
  KEPT_MS,
  LogInterestTable,
  LogListeners,
  logListened,
  publishLog,
  STARTING_MS,
  stopWatchingLogInterest,
  subjects,
  watchLogInterest,
} from '../../libs/bus/src/index.ts';

const names = subjects('interest');
const turn = () => new Promise((resolve) => setImmediate(resolve));

/** An in-memory bus: what is published reaches the subscribers of that exact subject at once. */
function memoryBus() {
  const subscribers = new Map<string, Set<(data: Uint8Array) => void>>();
  const published: { subject: string; text: string }[] = [];
  const nc = {
    publish(subject: string, data: Uint8Array = new Uint8Array()) {
      published.push({ subject, text: Buffer.from(data).toString('utf8') });
      for (const deliver of subscribers.get(subject) ?? []) deliver(data);
    },
    subscribe(subject: string, options: { callback: (error: unknown, msg: { data: Uint8Array }) => void }) {
      const deliver = (data: Uint8Array) => options.callback(null, { data });
      if (!subscribers.has(subject)) subscribers.set(subject, new Set());
      subscribers.get(subject)!.add(deliver);
      return { unsubscribe: () => subscribers.get(subject)!.delete(deliver) };
    },
  };
  return { nc: nc as unknown as NatsConnection, published };
}

test('the table: everything while starting, then only what was announced, until it lapses', () => {
  const t0 = 1_000_000;
  const table = new LogInterestTable(t0);
  assert.equal(table.listened('env_a', t0 + STARTING_MS - 1), true, 'every environment while starting');
  assert.equal(table.listened('env_a', t0 + STARTING_MS), false);
  table.heard(['env_a'], t0 + STARTING_MS);
  assert.equal(table.listened('env_a', t0 + STARTING_MS + KEPT_MS - 1), true);
  assert.equal(table.listened('env_b', t0 + STARTING_MS + 1), false);
  table.heard(['env_a'], t0 + STARTING_MS + ANNOUNCE_MS);
  assert.equal(table.listened('env_a', t0 + STARTING_MS + KEPT_MS + 1), true, 'each announcement extends it');
  assert.equal(table.listened('env_a', t0 + STARTING_MS + ANNOUNCE_MS + KEPT_MS), false, 'lapsed');
});

test('a watching publisher sends only the environments a gateway announced; others are unchanged', async (t) => {
  const { nc, published } = memoryBus();
  const listeners = new LogListeners(nc, names);
  listeners.start();
  t.after(() => listeners.stop());
  t.mock.timers.enable({ apis: ['Date'], now: 5_000_000 });
  watchLogInterest(nc, names);
  t.after(() => stopWatchingLogInterest(nc));
  assert.ok(
    published.some((m) => m.subject === names.logInterestAsk),
    'a starting publisher asks',
  );
  t.mock.timers.tick(STARTING_MS);
  assert.equal(logListened(nc, 'env_a'), false);
  t.mock.timers.reset();

  const sent = () => published.filter((m) => m.subject.startsWith(`${names.logs('')}`)).map((m) => m.subject);
  publishLog(nc, names, 'env_a', 'info', 'nobody.listens');
  await turn();
  assert.deepEqual(sent(), [], 'not sent while nobody listens');

  listeners.opened('env_a');
  listeners.opened('env_a');
  assert.equal(published.filter((m) => m.subject === names.logInterest).length, 1, 'announced once, at the first socket');
  publishLog(nc, names, 'env_a', 'info', 'someone.listens');
  publishLog(nc, names, 'env_b', 'info', 'not.this.one');
  await turn();
  assert.deepEqual(sent(), [names.logs('env_a')]);

  // a publisher that starts later asks, and hears every listened environment at once
  const other = memoryBus();
  const late = new LogListeners(other.nc, names);
  late.start();
  late.opened('env_c');
  late.closed('env_c');
  late.opened('env_d');
  other.published.length = 0;
  watchLogInterest(other.nc, names);
  assert.deepEqual(
    other.published.filter((m) => m.subject === names.logInterest).map((m) => JSON.parse(m.text)),
    [['env_d']],
    'answered with the environments it holds sockets of now',
  );
  stopWatchingLogInterest(other.nc);
  late.stop();

  const plain = memoryBus();
  assert.equal(logListened(plain.nc, 'env_z'), true, 'a connection that does not watch publishes everything');
});
