/**
 * A channel feed's fan-out to many local members goes in slices, one per event-loop turn, at most
 * FANOUT_SLICE members each and fewer when members are dear (sized to FANOUT_TURN_MS)
 * (libs/edge/src/channels/channel-feed.ts): another channel's frame is delivered between the
 * slices, and every member of the large channel still gets every frame once, in order.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { subjects } from '@rtm/bus';
import {
  FANOUT_MIN,
  FANOUT_SLICE,
  FANOUT_TURN_MS,
  FeedRegistry,
  type FeedDeps,
  type FeedMember,
  type Frame,
} from '../../libs/edge/src/channels/channel-feed.ts';

interface Member extends FeedMember {
  frames: Frame[];
}

const member = (userId: string): Member => {
  const m: Member = { userId, frames: [], deliver: (_text, frame) => void m.frames.push(frame), resync: () => {} };
  return m;
};

type Callback = (error: Error | null, msg: { data: Uint8Array }) => void;

/** Feeds over a fake bus (one callback per subject) and a store of empty channels. */
const feedDeps = () => {
  const callbacks = new Map<string, Callback>();
  const deps: FeedDeps = {
    nc: {
      subscribe: (subject, opts) => {
        callbacks.set(subject, opts.callback);
        return { unsubscribe() {} };
      },
      flush: async () => {},
    },
    subjects: subjects('rtm'),
    lastSeq: async () => 0,
    read: async () => [],
    readChanges: async () => [],
    log: { warn() {} },
  };
  const encoder = new TextEncoder();
  const publish = (environmentId: string, channelId: string, frame: Frame) =>
    callbacks.get(deps.subjects.channel(environmentId, channelId))!(null, { data: encoder.encode(JSON.stringify(frame)) });
  return { deps, publish };
};

test('feed fan-out - a slice is sized by what the last one cost: dear members go fewer per turn', async () => {
  const { deps, publish } = feedDeps();
  const registry = new FeedRegistry(deps);
  // each delivery takes a fifth of a turn's budget: a turn fits 5, the floor is FANOUT_MIN
  const dear = (userId: string): Member => {
    const m = member(userId);
    m.deliver = (_text, frame) => {
      const until = performance.now() + FANOUT_TURN_MS / 5;
      while (performance.now() < until);
      m.frames.push(frame);
    };
    return m;
  };
  const crowd = Array.from({ length: FANOUT_SLICE + FANOUT_MIN * 3 }, (_, i) => dear(`a${i}`));
  for (const m of crowd) await registry.join('env_a', 'crowded', m);
  publish('env_a', 'crowded', { id: 'a1', ephemeral: true, seq: 0 });
  const reached = () => crowd.filter((m) => m.frames.length > 0).length;
  assert.equal(reached(), FANOUT_SLICE, 'the first slice, before anything was measured');
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(reached(), FANOUT_SLICE + FANOUT_MIN, 'the next slice fits the turn (at least FANOUT_MIN)');
  for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
  assert.equal(reached(), crowd.length);
});

test("feed fan-out - a channel with many members is handed out in slices; another channel's frame goes between them", async () => {
  const { deps, publish } = feedDeps();
  const registry = new FeedRegistry(deps);
  const crowd = Array.from({ length: FANOUT_SLICE * 2 + 10 }, (_, i) => member(`a${i}`));
  for (const m of crowd) await registry.join('env_a', 'crowded', m);
  const neighbour = member('b');
  await registry.join('env_b', 'quiet', neighbour);

  for (let n = 1; n <= 3; n++) publish('env_a', 'crowded', { id: `a${n}`, ephemeral: true, seq: 0 });
  publish('env_b', 'quiet', { id: 'b1', ephemeral: true, seq: 0 });
  // in this turn: the first slice of the crowded channel's first frame, and the quiet channel's frame
  assert.deepEqual(
    neighbour.frames.map((f) => f.id),
    ['b1'],
  );
  assert.equal(crowd.filter((m) => m.frames.length > 0).length, FANOUT_SLICE);
  assert.equal(crowd.at(-1)!.frames.length, 0);

  for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
  for (const m of crowd)
    assert.deepEqual(
      m.frames.map((f) => f.id),
      ['a1', 'a2', 'a3'],
    );
});
