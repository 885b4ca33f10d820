import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isServiceError } from '@rtm/errors';
import { OccupancyFrames, presenceOff, type Counts, type OccupancyWatcher } from '@rtm/presence';

const watcher = (environmentId: string, channelId: string) => {
  const frames: object[] = [];
  const w: OccupancyWatcher & { frames: object[] } = { environmentId, channelId, frames, send: (frame) => frames.push(frame) };
  return w;
};

test('OccupancyFrames: a new watcher gets the counts at the next tick, everyone gets them when they change, nobody when they do not', (t) => {
  const counts = new Map<string, Counts | undefined>([['env/room', { connections: 2, users: 1 }]]);
  const frames = new OccupancyFrames((env, channel) => counts.get(`${env}/${channel}`), 60_000);
  t.after(() => frames.stop());
  const a = watcher('env', 'room');
  frames.watch(a);
  frames.tick();
  assert.deepEqual(a.frames, [{ op: 'occupancy', connections: 2, users: 1 }]);
  frames.tick();
  assert.equal(a.frames.length, 1, 'unchanged: no frame');

  const b = watcher('env', 'room');
  frames.watch(b);
  frames.tick();
  assert.equal(a.frames.length, 1, 'the counts did not change for a');
  assert.deepEqual(b.frames, [{ op: 'occupancy', connections: 2, users: 1 }], 'b is fresh: it gets them anyway');

  counts.set('env/room', { connections: 3, users: 2 });
  frames.tick();
  assert.deepEqual(a.frames.at(-1), { op: 'occupancy', connections: 3, users: 2 });
  assert.deepEqual(b.frames.at(-1), { op: 'occupancy', connections: 3, users: 2 });
  assert.equal(frames.size, 1, 'one entry per channel');
});

test('OccupancyFrames: counts that cannot be read locally wait for a later tick; the last watcher gone forgets the channel', (t) => {
  let counts: Counts | undefined;
  const frames = new OccupancyFrames(() => counts, 60_000);
  t.after(() => frames.stop());
  const a = watcher('env', 'room');
  const other = watcher('env', 'hall');
  frames.watch(a);
  frames.watch(other);
  frames.tick();
  assert.equal(a.frames.length, 0, 'no counts yet');
  counts = { connections: 1, users: 1 };
  frames.tick();
  assert.equal(a.frames.length, 1, 'still fresh until it got a frame');
  frames.unwatch(a);
  frames.unwatch(a); // twice changes nothing
  assert.equal(frames.size, 1);
  counts = { connections: 5, users: 5 };
  frames.tick();
  assert.equal(a.frames.length, 1, 'an unwatched subscription gets nothing');
  assert.equal(other.frames.length, 2);
  frames.unwatch(other);
  assert.equal(frames.size, 0);
});

test('presenceOff: refused as forbidden, naming the namespace setting', () => {
  const error = presenceOff();
  assert.ok(isServiceError(error));
  assert.equal(error.code, 'forbidden');
  assert.match(error.reason ?? '', /presence: false/);
});
