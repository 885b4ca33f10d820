import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { HostResolver } from '@rtm/webhooks';
import { WebhookSender } from '../../apps/dispatcher/src/send-webhook.ts';

async function receiver(answer: (n: number, destroy: () => void, respond: (status: number) => void) => void) {
  let n = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => answer(++n, () => req.socket.destroy(), (status) => res.writeHead(status).end()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/hook`, requests: () => n, close: () => new Promise((resolve) => server.close(resolve)) };
}

const sender = (refused?: (url: string, reason: string) => void) =>
  new WebhookSender({
    timeoutMs: 2_000,
    allowLoopback: true,
    resolver: new HostResolver({ timeoutMs: 500, tries: 1, allowLoopback: true }),
    ...(refused && { refused }),
  });

test('a connection reset before any answer is sent once more at once; a second reset is the attempt\'s result', async () => {
  const flaky = await receiver((n, destroy, respond) => (n === 1 ? destroy() : respond(204)));
  const webhooks = sender();
  try {
    const result = await webhooks.send(flaky.url, '{}', {});
    assert.equal(result.ok, true);
    assert.equal(result.statusCode, 204);
    assert.equal(flaky.requests(), 2);
    assert.equal(webhooks.resent, 1);
  } finally {
    await webhooks.close();
    await flaky.close();
  }
  const broken = await receiver((_, destroy) => destroy());
  const again = sender();
  try {
    const result = await again.send(broken.url, '{}', {});
    assert.deepEqual([result.ok, result.error], [false, 'reset']);
    assert.equal(broken.requests(), 2, 'sent twice, not more');
  } finally {
    await again.close();
    await broken.close();
  }
});

test('an answer is never sent again, whatever it is', async () => {
  const failing = await receiver((_, __, respond) => respond(500));
  const webhooks = sender();
  try {
    const result = await webhooks.send(failing.url, '{}', {});
    assert.deepEqual([result.ok, result.error], [false, 'status 500']);
    assert.equal(failing.requests(), 1);
    assert.equal(webhooks.resent, 0);
  } finally {
    await webhooks.close();
    await failing.close();
  }
});

test('a URL this process refuses at send time is told once per URL', async () => {
  const told: string[] = [];
  const strict = new WebhookSender({
    timeoutMs: 2_000,
    allowLoopback: false,
    resolver: new HostResolver({ timeoutMs: 500, tries: 1, allowLoopback: false }),
    refused: (url, reason) => told.push(`${url} ${reason}`),
  });
  try {
    for (let i = 0; i < 3; i++) assert.equal((await strict.send('http://127.0.0.1:9/hook?token=secret', '{}', {})).error, 'blocked_address');
    assert.equal(told.length, 1);
    assert.match(told[0]!, /loopback/);
    assert.doesNotMatch(told[0]!, /secret/, 'the URL is redacted');
  } finally {
    await strict.close();
  }
});
