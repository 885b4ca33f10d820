import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  PRESENCE_DATA_MAX,
  RECORD_ENTRY_BYTES_MAX,
  PresenceRecordIndex,
  PresenceWindow,
  RecordShard,
  changesOf,
  decideFromIndex,
  decideFromRecords,
  decodeEntries,
  decodeRecord,
  encodeRecord,
  presenceFrame,
  serializeData,
  type IndexedRecord,
} from '@rtm/presence';

const at = new Date(1_000_000);
const now = at.getTime();
const T0 = 1_000_000;
const value = (users: Record<string, number>, entries: Record<string, unknown> = {}) =>
  encodeRecord(new Map(Object.entries(users)), new Map(Object.entries(entries).map(([userId, data]) => [userId, JSON.stringify(data)])));
const put = (key: string, revision: number, users: Record<string, number>, entries?: Record<string, unknown>): IndexedRecord => ({
  key,
  revision,
  operation: 'PUT',
  created: at,
  value: value(users, entries),
});

test('records with entries: data under "#", read back as written; users without sockets and a previous release\'s reader skip it', () => {
  const written = value({ ann: 2, bob: 1 }, { ann: { mood: 'busy', n: [1, 2] }, bob: null, gone: 'x' });
  const parsed = JSON.parse(new TextDecoder().decode(written));
  assert.deepEqual(parsed, { ann: 2, bob: 1, '#': { ann: { mood: 'busy', n: [1, 2] }, bob: null } }, 'an entry of a user not held is not written');
  assert.deepEqual(
    decodeRecord(written),
    new Map([
      ['ann', 2],
      ['bob', 1],
    ]),
    'the users are what they were: "#" is no user',
  );
  assert.deepEqual(
    decodeEntries(written),
    new Map([
      ['ann', '{"mood":"busy","n":[1,2]}'],
      ['bob', 'null'],
    ]),
  );
  assert.equal(new TextDecoder().decode(value({ ann: 1 })), '{"ann":1}', 'no entries: the record of the previous release, byte for byte');
});

test('serializeData: at most PRESENCE_DATA_MAX bytes serialized (UTF-8), undefined as null', () => {
  assert.equal(serializeData(undefined), 'null');
  assert.equal(serializeData({ a: 1 }), '{"a":1}');
  const fits = 'x'.repeat(PRESENCE_DATA_MAX - 2);
  assert.equal(serializeData(fits), JSON.stringify(fits));
  assert.equal(serializeData(`${fits}x`), undefined, '1 KiB + 1');
  assert.equal(serializeData('é'.repeat(512)), undefined, 'counted in bytes, not characters');
});

test("RecordShard: an entry is its user's latest holder's; a write carries enter, update and leave against what the bucket holds", () => {
  const shard = new RecordShard('env.chan.gw.3', 'env.chan', 'env', 'chan', T0);
  const tab1 = {};
  const tab2 = {};
  shard.add('ann');
  shard.add('ann');
  shard.enter('ann', tab1, '{"v":1}');
  const first = shard.begin(T0);
  assert.deepEqual(first.entries, [{ userId: 'ann', action: 'enter', data: '{"v":1}' }]);
  assert.deepEqual(decodeEntries(first.value), new Map([['ann', '{"v":1}']]));
  shard.succeeded(first);

  shard.enter('ann', tab2, '{"v":2}');
  assert.equal(shard.entered('ann', tab2), true);
  const second = shard.begin(T0 + 1_000);
  assert.deepEqual(second.entries, [{ userId: 'ann', action: 'update', data: '{"v":2}' }]);
  shard.succeeded(second);

  // the latest holder leaves: the entry falls back to the other's
  assert.equal(shard.exit('ann', tab2), true);
  assert.equal(shard.exit('ann', tab2), false, 'a second leave changes nothing');
  const third = shard.begin(T0 + 2_000);
  assert.deepEqual(third.entries, [{ userId: 'ann', action: 'update', data: '{"v":1}' }]);
  shard.succeeded(third);

  // an update and back between two writes: the bucket already holds it, nothing to announce
  shard.enter('ann', tab1, '{"v":9}');
  shard.enter('ann', tab1, '{"v":1}');
  assert.deepEqual(shard.begin(T0 + 3_000).entries, []);
  shard.succeeded(shard.begin(T0 + 3_000));

  // the last holder leaves with its socket: departure and leave in one write; the entry is not written
  shard.exit('ann', tab1);
  shard.remove('ann');
  shard.remove('ann');
  const last = shard.begin(T0 + 4_000);
  assert.deepEqual([last.departed, last.entries], [['ann'], [{ userId: 'ann', action: 'leave' }]]);
  assert.equal(decodeEntries(last.value).size, 0);
});

test('RecordShard: a failed write gives its entry changes back to the next one', () => {
  const shard = new RecordShard('env.chan.gw.3', 'env.chan', 'env', 'chan', T0);
  const tab = {};
  shard.add('ann');
  shard.enter('ann', tab, '1');
  shard.failed(shard.begin(T0), T0);
  const retry = shard.begin(T0 + 2_000);
  assert.deepEqual([retry.arrived, retry.entries], [['ann'], [{ userId: 'ann', action: 'enter', data: '1' }]]);
});

test("PresenceRecordIndex: a user's entry is the latest written over every gateway; a rewrite keeps when it was set", () => {
  const index = new PresenceRecordIndex(15_000);
  index.apply(put('env.chan.gw-a.1', 3, { ann: 1, bob: 1 }, { ann: 'from a' }));
  index.apply(put('env.chan.gw-b.1', 5, { ann: 1 }, { ann: 'from b' }));
  index.apply(put('env.chan.gw-a.1', 8, { ann: 1, bob: 1 }, { ann: 'from a' })); // a refresh: still set at 3
  assert.deepEqual(index.entries('env.chan', now), new Map([['ann', { data: '"from b"', at: 5, time: now }]]));
  assert.deepEqual(index.entryElsewhere('env.chan', 'ann', 'gw-b', now), { data: '"from a"', at: 3, time: now });
  index.apply(put('env.chan.gw-a.1', 9, { ann: 1, bob: 1 }, { ann: 'newer a', bob: [1] }));
  assert.deepEqual(
    index.entries('env.chan', now),
    new Map([
      ['ann', { data: '"newer a"', at: 9, time: now }],
      ['bob', { data: '[1]', at: 9, time: now }],
    ]),
  );
  index.apply(put('env.chan.gw-a.1', 10, { bob: 1 }, { bob: [1] })); // ann gone from a: b's entry again
  assert.deepEqual(index.entries('env.chan', now).get('ann'), { data: '"from b"', at: 5, time: now });
  assert.equal(index.entries('env.chan', now + 20_000).size, 0, 'aged-out records hold no entries');
});

test("decide: entry changes ride with arrivals and departures, alone otherwise; a leave falls back to another gateway's entry", () => {
  const index = new PresenceRecordIndex(15_000);
  index.apply(put('env.chan.gw-other.1', 3, { cid: 1, dan: 1 }, { dan: 'dan elsewhere' }));
  index.apply(put('env.chan.gw-me.1', 5, { ann: 1, bob: 1, cid: 1 }, { ann: 1, bob: 2, cid: 3 }));
  const changes = {
    arrived: ['ann', 'cid'],
    departed: ['eve', 'dan'],
    revision: 5,
    entries: [
      { userId: 'ann', action: 'enter' as const, data: '1' },
      { userId: 'bob', action: 'update' as const, data: '2' },
      { userId: 'cid', action: 'enter' as const, data: '3' },
      { userId: 'eve', action: 'leave' as const },
      { userId: 'dan', action: 'leave' as const },
    ],
  };
  const expected = [
    { userId: 'ann', online: true, entry: { action: 'enter', data: '1' } },
    { userId: 'cid', online: true, entryOnly: true, entry: { action: 'enter', data: '3' } }, // held elsewhere since 3: not an arrival
    { userId: 'eve', online: false, entry: { action: 'leave' } },
    { userId: 'dan', online: true, entryOnly: true, entry: { action: 'update', data: '"dan elsewhere"' } },
    { userId: 'bob', online: true, entryOnly: true, entry: { action: 'update', data: '2' } },
  ];
  assert.deepEqual(decideFromIndex(index, 'env.chan', 'gw-me', changes, now), expected);
  const others = [
    {
      gateway: 'gw-other',
      revision: 3,
      users: new Map([
        ['cid', 1],
        ['dan', 1],
      ]),
      entries: new Map([['dan', '"dan elsewhere"']]),
    },
  ];
  assert.deepEqual(decideFromRecords(others, changes), expected, 'the bucket listing decides the same');
});

test('PresenceWindow with entries: enter then update is an enter with the newer data; arrival then update keeps the arrival; leave after a departure', () => {
  const window = new PresenceWindow({ rememberMs: 60_000 });
  window.add({ userId: 'ann', online: true, at: 1, entry: { action: 'enter', data: { v: 1 } } });
  window.add({ userId: 'ann', online: true, at: 2, entryOnly: true, entry: { action: 'update', data: { v: 2 } } });
  window.add({ userId: 'bob', online: true, at: 3 });
  window.add({ userId: 'bob', online: true, at: 4, entryOnly: true, entry: { action: 'enter', data: null } });
  window.add({ userId: 'cid', online: true, at: 5, entryOnly: true, entry: { action: 'update', data: 'x' } });
  window.add({ userId: 'cid', online: false, at: 6 });
  window.add({ userId: 'dan', online: true, at: 7, entryOnly: true, entry: { action: 'leave' } });
  window.add({ userId: 'dan', online: true, at: 6, entryOnly: true, entry: { action: 'update', data: 'old' } }); // older: dropped
  const batch = window.drain(now)!;
  assert.deepEqual(presenceFrame(batch), {
    op: 'presence',
    joined: ['ann', 'bob'],
    left: ['cid'],
    entered: [
      { userId: 'ann', data: { v: 2 } },
      { userId: 'bob', data: null },
    ],
    exited: ['cid', 'dan'],
  });
  // an entry change after a departure proves a return: joined again
  window.add({ userId: 'cid', online: false, at: 10 });
  window.add({ userId: 'cid', online: true, at: 11, entryOnly: true, entry: { action: 'update', data: 'back' } });
  assert.deepEqual(presenceFrame(window.drain(now)!), { op: 'presence', joined: ['cid'], left: [], updated: [{ userId: 'cid', data: 'back' }] });
  // and a window of plain joins is the frame of the previous release
  window.add({ userId: 'eve', online: true, at: 12 });
  assert.deepEqual(presenceFrame(window.drain(now)!), { op: 'presence', joined: ['eve'], left: [] });
});

test('changesOf: entries cross the bus; an entry-only change without a valid entry is dropped', () => {
  const changes = changesOf(
    {
      op: 'presence',
      changes: [
        { userId: 'ann', online: true, at: 4, entry: { action: 'enter', data: { a: 1 } } },
        { userId: 'bob', online: true, at: 5, entryOnly: true, entry: { action: 'leave' } },
        { userId: 'cid', online: true, at: 6, entryOnly: true, entry: { action: 'update' } },
        { userId: 'dan', online: false, at: 7, entry: { action: 'bogus' } },
      ],
    },
    0,
  );
  assert.deepEqual(changes, [
    { userId: 'ann', online: true, at: 4, entry: { action: 'enter', data: { a: 1 } } },
    { userId: 'bob', online: true, at: 5, entryOnly: true, entry: { action: 'leave' } },
    { userId: 'dan', online: false, at: 7 },
  ]);
});

test("RecordShard: a record's entries stay under RECORD_ENTRY_BYTES_MAX; an enter past it changes nothing, a smaller one still fits", () => {
  const shard = new RecordShard('env.chan.gw.3', 'env.chan', 'env', 'chan', T0);
  const full = JSON.stringify('d'.repeat(PRESENCE_DATA_MAX - 2));
  const fit = Math.floor(RECORD_ENTRY_BYTES_MAX / PRESENCE_DATA_MAX);
  for (let i = 0; i < fit; i++) {
    shard.add(`u${i}`);
    assert.equal(shard.enter(`u${i}`, {}, full), true);
  }
  shard.add('late');
  assert.equal(shard.enter('late', {}, full), false, 'the record is full');
  assert.equal(shard.entries.has('late'), false);
  const holder = {};
  assert.equal(shard.enter('u0', holder, '1'), true, 'a smaller entry replacing a big one fits');
  assert.equal(shard.enter('late', {}, '2'), true, 'and frees room');
  assert.equal(shard.exit('u0', holder), true);
  assert.ok(
    new TextEncoder().encode(JSON.stringify(JSON.parse(new TextDecoder().decode(shard.begin(T0).value))['#'])).length <= RECORD_ENTRY_BYTES_MAX + 20 * fit,
  );
});
