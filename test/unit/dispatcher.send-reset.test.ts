import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { generateWebhookSecret, SIGNATURE_HEADER, signatureHeader, standardHeaders, verifyStandardWebhook, verifyWebhookSignature } from '@rtm/webhooks';
import { deliverySignatures } from '../../apps/dispatcher/src/delivery/delivery-headers.ts';
import { HostResolver } from '@rtm/rules';
import { SendDeadline, WebhookSender } from '../../apps/dispatcher/src/send-webhook.ts';

async function receiver(answer: (n: number, destroy: () => void, respond: (status: number) => void) => void) {
  let n = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () =>
      answer(
        ++n,
        () => req.socket.destroy(),
        (status) => res.writeHead(status).end(),
      ),
    );
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

test("a connection reset before any answer is sent once more at once; a second reset is the attempt's result", async () => {
  const flaky = await receiver((n, destroy, respond) => (n === 1 ? destroy() : respond(204)));
  const webhooks = sender();
  try {
    const result = await webhooks.send(flaky.url, '{}', []);
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
    const result = await again.send(broken.url, '{}', []);
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
    const result = await webhooks.send(failing.url, '{}', []);
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
    for (let i = 0; i < 3; i++) assert.equal((await strict.send('http://127.0.0.1:9/hook?token=secret', '{}', [])).error, 'blocked_address');
    assert.equal(told.length, 1);
    assert.match(told[0]!, /loopback/);
    assert.doesNotMatch(told[0]!, /secret/, 'the URL is redacted');
  } finally {
    await strict.close();
  }
});

test('a group deadline ends every send still out as a timeout; a send after it ends at once', async () => {
  const hanging = await receiver(() => {}); // never answers
  const webhooks = sender();
  const deadline = new SendDeadline(150);
  try {
    const started = performance.now();
    const results = await Promise.all([webhooks.send(hanging.url, '{}', [], deadline), webhooks.send(hanging.url, '{}', [], deadline)]);
    assert.deepEqual(
      results.map((r) => [r.ok, r.error]),
      [
        [false, 'timeout'],
        [false, 'timeout'],
      ],
    );
    assert.ok(performance.now() - started < 1_900, 'ended by the group deadline, not the sender timeout');
    assert.deepEqual(await webhooks.send(hanging.url, '{}', [], deadline), { ok: false, error: 'timeout', durationMs: 0 });
  } finally {
    deadline.clear();
    await webhooks.close();
    await hanging.close();
  }
});

test('the status decides, whatever the body: a long body is not read past the limit', async () => {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(req.headers['x-case'] === 'long' ? 200 : 302, { location: 'http://127.0.0.1:1/elsewhere' });
      res.end(req.headers['x-case'] === 'long' ? Buffer.alloc(1024 * 1024, 120) : 'moved');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`;
  const webhooks = sender();
  try {
    const long = await webhooks.send(url, '{}', ['x-case', 'long']);
    assert.deepEqual([long.ok, long.statusCode], [true, 200]);
    const moved = await webhooks.send(url, '{}', ['x-case', 'moved']);
    assert.deepEqual([moved.ok, moved.statusCode, moved.error], [false, 302, 'status 302'], 'a redirect is not followed');
  } finally {
    await webhooks.close();
    await new Promise((resolve) => server.close(resolve));
  }
});

test('the signed headers are the bytes and values both verifiers accept', async () => {
  const secret = generateWebhookSecret();
  const previous = generateWebhookSecret();
  const body = Buffer.from(JSON.stringify({ id: 'evt_1', data: { text: 'héllo' } }), 'utf8');
  const timestamp = Math.floor(Date.now() / 1000);
  const flat = deliverySignatures([secret, previous], 'evt_1', timestamp, body);
  const headers = Object.fromEntries(Array.from({ length: flat.length / 2 }, (_, i) => [flat[2 * i]!, flat[2 * i + 1]!]));
  assert.equal(headers[SIGNATURE_HEADER], signatureHeader([secret, previous], timestamp, body.toString('utf8')));
  assert.deepEqual(
    { id: headers['webhook-id'], timestamp: headers['webhook-timestamp'], signature: headers['webhook-signature'] },
    Object.fromEntries(
      Object.entries(standardHeaders([secret, previous], 'evt_1', timestamp, body.toString('utf8'))).map(([k, v]) => [k.replace('webhook-', ''), v]),
    ),
  );
  for (const key of [secret, previous]) {
    assert.equal(verifyWebhookSignature(body, headers[SIGNATURE_HEADER], key).ok, true);
    assert.equal(
      verifyStandardWebhook(body, { id: headers['webhook-id'], timestamp: headers['webhook-timestamp'], signature: headers['webhook-signature'] }, key).ok,
      true,
    );
  }
});
