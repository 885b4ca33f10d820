import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connectBus, decodeText, encodeText, isNoResponders, isTimeout, Requester } from '@rtm/bus';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

test('requester: replies reach their own request, no responders and time-outs are told apart, close rejects', async (t) => {
  const nc = await connectBus(NATS_URL, 'requester-test');
  const prefix = `req${process.pid}${Date.now()}`;
  const requester = new Requester(nc);
  t.after(async () => {
    requester.close();
    await nc.close();
  });

  // echoes after a random delay, so replies come back out of order
  nc.subscribe(`${prefix}.echo`, {
    callback: (_error, msg) => setTimeout(() => msg.respond(encodeText(`re:${decodeText(msg.data)}`)), Math.random() * 20),
  });
  nc.subscribe(`${prefix}.silent`, { callback: () => {} });
  let lateReplies = 0;
  nc.subscribe(`${prefix}.late`, {
    callback: (_error, msg) =>
      setTimeout(() => {
        lateReplies++;
        msg.respond(encodeText('too late'));
      }, 300),
  });
  await nc.flush();

  await t.test('1,000 concurrent requests each get their own reply', async () => {
    const answers = await Promise.all(
      Array.from({ length: 1_000 }, (_, i) => requester.request(`${prefix}.echo`, encodeText(String(i)), { timeoutMs: 5_000 })),
    );
    assert.deepEqual(
      answers.map((msg) => decodeText(msg.data)),
      Array.from({ length: 1_000 }, (_, i) => `re:${i}`),
    );
    assert.equal(requester.waiting, 0);
  });

  await t.test('a subject nobody subscribes to fails with NoResponders', async () => {
    await assert.rejects(requester.request(`${prefix}.nobody`, encodeText('x'), { timeoutMs: 5_000 }), (error) => isNoResponders(error));
    assert.equal(requester.waiting, 0);
  });

  await t.test('no reply in time fails with Timeout; a reply after it is dropped', async () => {
    await assert.rejects(requester.request(`${prefix}.silent`, encodeText('x'), { timeoutMs: 100 }), (error) => isTimeout(error));
    await assert.rejects(requester.request(`${prefix}.late`, encodeText('x'), { timeoutMs: 100 }), (error) => isTimeout(error));
    // the late reply arrives and finds nobody waiting; the next request is answered normally
    const deadline = Date.now() + 5_000;
    while (lateReplies === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(lateReplies, 1);
    await nc.flush();
    const msg = await requester.request(`${prefix}.echo`, encodeText('after'), { timeoutMs: 5_000 });
    assert.equal(decodeText(msg.data), 're:after');
    assert.equal(requester.waiting, 0);
  });

  await t.test('close() rejects what is still waiting', async () => {
    const other = new Requester(nc);
    const pending = other.request(`${prefix}.silent`, encodeText('x'), { timeoutMs: 60_000 });
    other.close();
    await assert.rejects(pending, (error: { code?: unknown }) => !isTimeout(error) && !isNoResponders(error));
    assert.equal(other.waiting, 0);
  });
});
