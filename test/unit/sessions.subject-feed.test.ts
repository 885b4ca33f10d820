import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { NatsConnection } from '@rtm/bus';
import { SubjectFeed } from '../../libs/edge/src/sessions/subject-feed.ts';

test('subject feed: flushes asked while one is on its way share the next, which is sent after they were asked', async () => {
  const sent: number[] = [];
  let clock = 0;
  const nc = {
    flush: async () => {
      sent.push(++clock);
      await new Promise((resolve) => setTimeout(resolve, 10));
    },
  } as unknown as NatsConnection;
  const feed = new SubjectFeed(nc);
  const asked: { at: number; done: Promise<number> }[] = [];
  for (let i = 0; i < 100; i++) {
    const at = clock;
    asked.push({ at, done: feed.flush().then(() => clock) });
    await new Promise((resolve) => setImmediate(resolve));
  }
  await Promise.all(asked.map((a) => a.done));
  assert.ok(sent.length <= 40, `${sent.length} round trips for 100 flushes asked one per turn`);
  // each caller's flush resolved after a round trip sent after it asked
  for (const { at, done } of asked) assert.ok((await done) > at);
});
