import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connectBus, Requester } from '@rtm/bus';
import { KvCasStore } from '@rtm/limits';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

/**
 * The limiters' store on a real JetStream bucket, both ways it talks to it: through the process's
 * requester (the bucket's subjects, one request each) and through nats.js's KV. Each must honour
 * the other's revisions: they are the same bucket, and gateways of two releases share it.
 */
test('KV compare-and-set store: lean requests and nats.js agree on values, revisions and refusals', async (t) => {
  const nc = await connectBus(NATS_URL, 'kv-cas-test');
  const requester = new Requester(nc);
  const bucket = `kvcas${process.pid}${Date.now()}`;
  t.after(async () => {
    requester.close();
    const jsm = await nc.jetstreamManager();
    await jsm.streams.delete(`KV_${bucket}`).catch(() => {});
    await nc.close();
  });
  // counts what goes through the requester: the lean store must not fall back to nats.js
  const subjects: string[] = [];
  const request = requester.request.bind(requester);
  requester.request = (subject, data, options) => (subjects.push(subject), request(subject, data, options));
  const lean = new KvCasStore(nc, bucket, { ttlMs: 60_000, deadlineMs: 2_000, requester });
  const plain = new KvCasStore(nc, bucket, { ttlMs: 60_000, deadlineMs: 2_000 });

  for (const [writer, reader, name] of [
    [lean, plain, 'lean writes, nats.js reads'],
    [plain, lean, 'nats.js writes, lean reads'],
  ] as const) {
    await t.test(name, async () => {
      const key = `u.${name.replace(/[^a-z]/g, '')}`;
      assert.equal(await reader.get(key), null, 'a key nobody wrote');
      assert.equal(await writer.swap(key, '{"a":1}', 0), true, 'created at revision 0');
      assert.equal(await reader.swap(key, '{"b":1}', 0), false, 'a second create is refused');
      const first = await reader.get(key);
      assert.equal(first?.value, '{"a":1}');
      assert.ok(first && first.revision > 0);
      assert.equal(await writer.swap(key, '{"a":2}', first.revision + 100), false, 'a wrong revision is refused');
      assert.equal(await reader.swap(key, '{"a":2}', first.revision), true, 'the current revision is taken');
      const second = await writer.get(key);
      assert.equal(second?.value, '{"a":2}');
      assert.ok(second && second.revision > first.revision);
      assert.equal(await writer.swap(key, '{"a":3}', first.revision), false, 'the revision it replaced is stale');
    });
  }

  await t.test("the lean store read and wrote through the requester, on the bucket's own subjects", () => {
    assert.ok(
      subjects.some((subject) => subject.startsWith(`$JS.API.DIRECT.GET.KV_${bucket}.`)),
      'direct gets',
    );
    assert.ok(
      subjects.some((subject) => subject.startsWith(`$KV.${bucket}.`)),
      'puts',
    );
  });

  await t.test('many concurrent creates of one key: exactly one wins', async () => {
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? lean : plain).swap('e.race', String(i), 0)));
    assert.equal(results.filter(Boolean).length, 1);
  });
});
