import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PresenceRecordIndex, decideFromIndex, decideFromRecords, encodeRecord, type IndexedRecord, type StoredRecord } from '@rtm/presence';

const at = new Date(1_000_000);
const now = at.getTime();
const put = (key: string, revision: number, users: Record<string, number>): IndexedRecord => ({
  key,
  revision,
  operation: 'PUT',
  created: at,
  value: encodeRecord(new Map(Object.entries(users))),
});

test('decideFromIndex: an arrival is announced unless another gateway held the user before our write; a departure unless anyone else holds them', () => {
  const index = new PresenceRecordIndex(15_000);
  index.apply(put('env.chan.gw-other.1', 3, { ann: 1 }));
  index.apply(put('env.chan.gw-me.1', 5, { ann: 1, bob: 1, cid: 1 }));
  index.apply(put('env.chan.gw-other.2', 6, { bob: 1 })); // bob held elsewhere only since after our write
  const decided = decideFromIndex(index, 'env.chan', 'gw-me', { arrived: ['ann', 'bob', 'cid'], departed: [], revision: 5 }, now);
  assert.deepEqual(
    decided,
    [
      { userId: 'bob', online: true },
      { userId: 'cid', online: true },
    ],
    'ann was held on gw-other since revision 3: its arrival was announced there',
  );

  index.apply(put('env.chan.gw-me.1', 7, {}));
  const departures = decideFromIndex(index, 'env.chan', 'gw-me', { arrived: [], departed: ['ann', 'bob', 'cid'], revision: 7 }, now);
  assert.deepEqual(departures, [{ userId: 'cid', online: false }], 'ann and bob are still held on gw-other');
});

test('decideFromIndex: arrivals come before departures, each in the order given', () => {
  const index = new PresenceRecordIndex(15_000);
  const decided = decideFromIndex(index, 'env.chan', 'gw-me', { arrived: ['b', 'a'], departed: ['d', 'c'], revision: 1 }, now);
  assert.deepEqual(
    decided.map((d) => `${d.userId}:${d.online}`),
    ['b:true', 'a:true', 'd:false', 'c:false'],
  );
});

test("decideFromRecords: the bucket's records, an arrival held elsewhere only by a record written before ours", () => {
  const others: StoredRecord[] = [
    { gateway: 'gw-a', revision: 4, users: new Map([['ann', 1]]) },
    { gateway: 'gw-b', revision: 9, users: new Map([['bob', 2]]) },
  ];
  assert.deepEqual(decideFromRecords(others, { arrived: ['ann', 'bob', 'cid'], departed: [], revision: 6 }), [
    { userId: 'bob', online: true },
    { userId: 'cid', online: true },
  ]);
  assert.deepEqual(decideFromRecords(others, { arrived: [], departed: ['ann', 'bob', 'cid'], revision: 10 }), [{ userId: 'cid', online: false }]);
  assert.deepEqual(decideFromRecords([], { arrived: ['ann'], departed: ['bob'], revision: 1 }), [
    { userId: 'ann', online: true },
    { userId: 'bob', online: false },
  ]);
});
