import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RECORD_SHARDS, parseRecord, recordChannel, recordKey, shardOf, splitRecordKey } from '@rtm/presence';

test('shardOf: the same shard for the same user everywhere, within range, spread over the shards', () => {
  assert.equal(shardOf('ann'), shardOf('ann'));
  const counts = new Array<number>(RECORD_SHARDS).fill(0);
  for (let i = 0; i < 3_200; i++) {
    const shard = shardOf(`user-${i}`);
    assert.ok(Number.isInteger(shard) && shard >= 0 && shard < RECORD_SHARDS, `${shard}`);
    counts[shard]!++;
  }
  // 100 per shard on average: a hash that clumped users would leave shards empty or crowded
  assert.ok(Math.min(...counts) > 50 && Math.max(...counts) < 150, counts.join(','));
  assert.equal(shardOf(''), 0x811c9dc5 % RECORD_SHARDS, 'the empty id is the hash basis');
});

test('record keys: four tokens whatever the channel id holds, split back into channel, gateway and record', () => {
  const key = recordKey('env_1', 'room.with.dots', 'gw_9', 'ann');
  assert.equal(key.split('.').length, 4);
  assert.ok(key.startsWith(`${recordChannel('env_1', 'room.with.dots')}.gw_9.`));
  assert.deepEqual(splitRecordKey(key), {
    channel: recordChannel('env_1', 'room.with.dots'),
    gateway: 'gw_9',
    record: `gw_9.${shardOf('ann')}`,
  });
  assert.equal(recordChannel('env_1', 'room.with.dots'), `env_1.${Buffer.from('room.with.dots').toString('base64url')}`);
  assert.notEqual(recordChannel('env_1', 'a'), recordChannel('env_2', 'a'), 'per environment');
  assert.equal(splitRecordKey('env.chan.gw'), undefined);
  assert.equal(splitRecordKey('env.chan.gw.1.extra'), undefined);
});

test('parseRecord: an object as written, undefined for an empty or foreign value', () => {
  const encode = (text: string) => new TextEncoder().encode(text);
  assert.deepEqual(parseRecord(encode('{"ann":2}')), { ann: 2 });
  assert.deepEqual(parseRecord(encode('{}')), {});
  for (const bad of ['', '[]', 'null', '3', '"x"', '{']) assert.equal(parseRecord(encode(bad)), undefined, bad);
});
