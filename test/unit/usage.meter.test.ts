/**
 * The usage meter (libs/usage meter.ts) and the flusher's retry rule (flusher.ts) without
 * Postgres: peaks hand over their rise, minutes split, channels count once per minute, connection
 * time splits at minute boundaries, and a failed flush is written again with the same number.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { USAGE_COLUMNS, UsageFlusher, UsageMeter, type UsageColumn, type UsageRow } from '@rtm/usage';

const MINUTE = 60_000;
const T0 = 1_700_000_040_000 - (1_700_000_040_000 % MINUTE);

function clock(start = T0) {
  const c = { at: start, now: () => c.at };
  return c;
}

const col = (row: UsageRow | undefined, name: UsageColumn) => row?.values[USAGE_COLUMNS.indexOf(name)] ?? 0;
const rowOf = (rows: UsageRow[], environmentId: string, at: number) => rows.find((r) => r.environmentId === environmentId && r.at === at);

test('usage meter: sums per environment and minute; a take hands each delta over once', () => {
  const c = clock();
  const meter = new UsageMeter(c.now);
  meter.add('env_a', 'messages_published_http', 3);
  meter.add('env_a', 'messages_published_http');
  meter.add('env_b', 'history_reads', 2);
  meter.delivered('env_a', 100);
  meter.delivered('env_a', 50);
  let rows = meter.take();
  assert.equal(rows.length, 2);
  assert.equal(col(rowOf(rows, 'env_a', T0), 'messages_published_http'), 4);
  assert.equal(col(rowOf(rows, 'env_a', T0), 'messages_delivered'), 2);
  assert.equal(col(rowOf(rows, 'env_a', T0), 'bytes_delivered'), 150);
  assert.equal(col(rowOf(rows, 'env_b', T0), 'history_reads'), 2);
  assert.deepEqual(meter.take(), [], 'nothing new: nothing to write');
  c.at += 59_999;
  meter.add('env_a', 'messages_published_http');
  c.at += 1;
  meter.add('env_a', 'messages_published_http', 5);
  rows = meter.take();
  assert.equal(col(rowOf(rows, 'env_a', T0), 'messages_published_http'), 1, 'the last millisecond is the first minute');
  assert.equal(col(rowOf(rows, 'env_a', T0 + MINUTE), 'messages_published_http'), 5, 'the boundary starts the next minute');
});

test("usage meter: a peak hands over its rise since the minute's last take; a new minute starts at the connections open", () => {
  const c = clock();
  const meter = new UsageMeter(c.now);
  meter.opened('env_a');
  meter.opened('env_a');
  let rows = meter.take();
  assert.equal(col(rowOf(rows, 'env_a', T0), 'connections_peak'), 2);
  meter.opened('env_a');
  meter.closed('env_a');
  meter.closed('env_a');
  rows = meter.take();
  assert.equal(col(rowOf(rows, 'env_a', T0), 'connections_peak'), 1, 'the peak rose from 2 to 3: 1 more');
  meter.opened('env_a');
  rows = meter.take();
  assert.equal(col(rowOf(rows, 'env_a', T0), 'connections_peak'), 0, 'back to 2 under a peak of 3: no rise');
  // the next minute: nothing opens, the 2 still open are its peak
  c.at = T0 + MINUTE + 10_000;
  rows = meter.take();
  assert.equal(col(rowOf(rows, 'env_a', T0 + MINUTE), 'connections_peak'), 2);
  assert.equal(meter.connections('env_a'), 2);
});

test('usage meter: connection time splits at minute boundaries; whole seconds are handed over as they add up', () => {
  const c = clock(T0 + 50_000);
  const meter = new UsageMeter(c.now);
  meter.opened('env_a');
  c.at += 500;
  assert.equal(col(rowOf(meter.take(), 'env_a', T0), 'connection_seconds'), 0, 'half a second: nothing whole yet');
  c.at = T0 + 50_000 + 1_500;
  assert.equal(col(rowOf(meter.take(), 'env_a', T0), 'connection_seconds'), 1);
  meter.opened('env_a');
  c.at = T0 + MINUTE + 4_000;
  meter.closed('env_a');
  meter.closed('env_a');
  const rows = meter.take();
  // minute 0: 1.5 s of one connection, then 2 × 8.5 s: 18.5 s, of which 1 was taken
  assert.equal(col(rowOf(rows, 'env_a', T0), 'connection_seconds'), 17);
  assert.equal(col(rowOf(rows, 'env_a', T0 + MINUTE), 'connection_seconds'), 8, '2 connections × 4 s');
  c.at += 60 * MINUTE;
  assert.deepEqual(meter.take(), [], 'closed: no more time');
});

test('usage meter: a channel counts once per minute; each take hands over the channels new since', () => {
  const c = clock();
  const meter = new UsageMeter(c.now);
  meter.channel('env_a', 'room-1');
  meter.channel('env_a', 'room-2');
  meter.channel('env_a', 'room-1');
  assert.equal(col(rowOf(meter.take(), 'env_a', T0), 'channels_active'), 2);
  meter.channel('env_a', 'room-1');
  assert.deepEqual(meter.take(), [], 'room-1 again in the same minute: nothing new');
  meter.channel('env_a', 'room-3');
  assert.equal(col(rowOf(meter.take(), 'env_a', T0), 'channels_active'), 1);
  c.at += MINUTE;
  meter.channel('env_a', 'room-1');
  assert.equal(col(rowOf(meter.take(), 'env_a', T0 + MINUTE), 'channels_active'), 1, 'a new minute counts it again');
});

test('usage flusher: a failed flush is written again with the same number; new counts wait for the next one', async () => {
  const meter = new UsageMeter(clock().now);
  const calls: { flush: unknown; published: unknown }[] = [];
  let fail = true;
  const flusher = new UsageFlusher({
    meter,
    flushMs: 1_000,
    source: 'test',
    db: {
      query: async (_text, values) => {
        calls.push({ flush: values[1], published: (values[4 + USAGE_COLUMNS.indexOf('messages_published_http')] as number[])[0] });
        if (fail) throw new Error('connection lost');
        return { rowCount: 1 };
      },
    },
  });
  meter.add('env_a', 'messages_published_http', 2);
  assert.equal(await flusher.flush(), false);
  meter.add('env_a', 'messages_published_http', 5);
  fail = false;
  assert.equal(await flusher.flush(), true);
  assert.equal(await flusher.flush(), true);
  assert.equal(await flusher.flush(), true);
  assert.deepEqual(calls, [
    { flush: 1, published: 2 },
    { flush: 1, published: 2 },
    { flush: 2, published: 5 },
  ]);
});
