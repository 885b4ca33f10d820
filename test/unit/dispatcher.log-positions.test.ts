import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LogPositions } from '../../apps/dispatcher/src/log-positions.ts';

test('the stored position never passes a delivery held without an outcome, nor what was not read', () => {
  const log = new LogPositions();
  log.open(3, '100');
  assert.deepEqual(log.positions(), new Map([[3, '100']]));
  assert.equal(log.track('a', 3, '105'), true);
  assert.equal(log.track('b', 3, '110'), true);
  log.scannedTo(3, '120');
  assert.equal(log.scanned(3), '120');
  assert.deepEqual(log.positions(), new Map([[3, '105']]), 'the least held');
  log.done(['a']);
  assert.deepEqual(log.positions(), new Map([[3, '110']]));
  log.done(['b']);
  assert.deepEqual(log.positions(), new Map([[3, '120']]), 'everything read');
  log.scannedTo(3, '90');
  assert.equal(log.scanned(3), '120', 'reading never moves back by itself');
});

test('a delivery let go without an outcome is read again: the read position moves back to it', () => {
  const log = new LogPositions();
  log.open(1, '50');
  log.track('x', 1, '60');
  log.scannedTo(1, '80');
  assert.equal(log.holds('x'), true);
  log.forget(['x', 'unknown']);
  assert.equal(log.holds('x'), false);
  assert.equal(log.scanned(1), '60');
  assert.deepEqual(log.positions(), new Map([[1, '60']]));
});

test('positions are xid8s compared as numbers, not as text', () => {
  const log = new LogPositions();
  log.open(0, '9');
  log.track('a', 0, '10');
  log.scannedTo(0, '100');
  assert.deepEqual(log.positions(), new Map([[0, '10']]));
  log.done(['a']);
  assert.equal(log.scanned(0), '100');
});

test('a partition given back is forgotten with what it held; another is untouched', () => {
  const log = new LogPositions();
  log.open(1, '10');
  log.open(2, '20');
  log.track('a', 1, '11');
  log.track('b', 2, '21');
  assert.equal(log.track('c', 9, '1'), false, 'not an open partition');
  log.close(1);
  assert.equal(log.owns(1), false);
  assert.equal(log.holds('a'), false);
  assert.equal(log.size, 1);
  assert.deepEqual(log.positions(), new Map([[2, '20']]));
});

test('an outcome made durable while a read of the log is out is remembered for that read only', () => {
  const log = new LogPositions();
  log.open(1, '10');
  log.track('a', 1, '11');
  log.track('b', 1, '12');
  log.done(['a']);
  log.watch();
  assert.equal(log.doneDuringRead('a'), false, 'durable before the read: the read does not return it');
  log.done(['b']);
  assert.equal(log.doneDuringRead('b'), true, 'durable while the read was out: not sent again');
  log.forget(['c']);
  log.unwatch();
  assert.equal(log.doneDuringRead('b'), false);
});
