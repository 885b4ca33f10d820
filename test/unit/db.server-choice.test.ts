/**
 * Which listed server a session may use: for writes, a primary, never an old primary on an older
 * timeline than one already seen (it came back after its standby was promoted); the newest
 * timeline wins among several that accept writes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chooseServer, noteTimeline, refusal, serverState, type ServerState, type Timelines } from '../../libs/db/src/server-choice.ts';

const primary = (timeline: number, system = 's1'): ServerState => ({ standby: false, readOnly: false, timeline, system });
const standby = (system = 's1'): ServerState => ({ standby: true, readOnly: true, timeline: undefined, system });

test('server choice: the primary among standbys and hosts that do not answer', () => {
  assert.equal(chooseServer([standby(), undefined, primary(1)], 'read-write', new Map()), 2);
  assert.equal(chooseServer([standby(), undefined], 'read-write', new Map()), undefined);
  assert.equal(chooseServer([standby(), primary(1)], 'primary', new Map()), 1);
});

test('server choice: an old primary back on an older timeline is never chosen', () => {
  // both accept writes: the promoted standby's newer timeline wins, wherever it is listed
  assert.equal(chooseServer([primary(1), primary(2)], 'read-write', new Map()), 1);
  assert.equal(chooseServer([primary(3), primary(2)], 'read-write', new Map()), 0);
  // the new primary is away now, the old one answers: refused, because timeline 2 was seen
  const seen: Timelines = new Map();
  noteTimeline(primary(2), seen);
  assert.equal(chooseServer([primary(1), undefined], 'read-write', seen), undefined);
  assert.equal(refusal(primary(1), 'read-write', seen), 'older_timeline');
  assert.equal(refusal(primary(2), 'read-write', seen), undefined);
  // a different cluster (another system identifier) is not compared
  assert.equal(refusal(primary(1, 's2'), 'read-write', seen), undefined);
});

test('server choice: a primary set read-only does not take writes', () => {
  const readOnly: ServerState = { ...primary(1), readOnly: true };
  assert.equal(refusal(readOnly, 'read-write', new Map()), 'read_only');
  assert.equal(refusal(standby(), 'read-write', new Map()), 'read_only');
  assert.equal(chooseServer([readOnly, primary(1)], 'read-write', new Map()), 1);
});

test('server choice: reads may go to standbys', () => {
  assert.equal(chooseServer([primary(1), standby()], 'prefer-standby', new Map()), 1);
  assert.equal(chooseServer([primary(1), undefined], 'prefer-standby', new Map()), 0);
  assert.equal(chooseServer([primary(1), standby()], 'standby', new Map()), 1);
  assert.equal(chooseServer([primary(1)], 'read-only', new Map()), undefined);
  assert.equal(chooseServer([undefined, primary(1), standby()], 'any', new Map()), 1);
});

test('server choice: the timeline is read from the WAL file a primary writes', () => {
  assert.deepEqual(serverState({ standby: false, read_only: false, wal_file: '0000000A', system: '7' }), primary(10, '7'));
  assert.equal(serverState({ standby: true, read_only: true, wal_file: null, system: null }).timeline, undefined);
  const seen: Timelines = new Map();
  noteTimeline(standby(), seen);
  noteTimeline(primary(3), seen);
  noteTimeline(primary(2), seen);
  assert.equal(seen.get('s1'), 3);
});
