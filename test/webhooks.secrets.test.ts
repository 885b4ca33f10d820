import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyWebhookSignature } from '@rtm/webhooks';
import { startCluster, startProcess, type RunningProcess } from './helpers/cluster.ts';
import { client } from './helpers/http.ts';
import { enqueue, publishedEvent, startReceiver } from './helpers/webhook-receiver.ts';

const key = () => randomBytes(32).toString('base64');

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A NATS server of this test that requires a user and password (JetStream on, for presence). */
async function startNatsWithPassword(t: import('node:test').TestContext, user: string, password: string): Promise<string> {
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'rtm-nats-'));
  const child = spawn('nats-server', ['-a', '127.0.0.1', '-p', String(port), '--user', user, '--pass', password, '-js', '-sd', dir], {
    stdio: 'ignore',
  });
  t.after(async () => {
    child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  });
  for (let i = 0; i < 100; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (up) return `nats://127.0.0.1:${port}`;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('nats-server did not start');
}

test('webhooks - secrets: encrypted at rest, signatures verify, the encryption key rotates, nothing secret in any output', async (t) => {
  const natsPassword = `nats-${randomBytes(9).toString('hex')}`;
  const natsUrl = await startNatsWithPassword(t, 'rtm', natsPassword);
  const firstKey = key();
  const cluster = await startCluster(t, {
    gateways: 1,
    dispatchers: 1,
    env: { NATS_URL: natsUrl, NATS_USER: 'rtm', NATS_PASSWORD: natsPassword, SECRET_ENCRYPTION_KEY: firstKey, LOG_LEVEL: 'debug' },
  });
  const processes: RunningProcess[] = [...cluster.gateways, ...cluster.dispatchers];
  const receiver = await startReceiver(t);
  const env = await cluster.createEnvironment();
  let api = client(cluster.gateways[0]!.controlUrl, env.secretKey);
  assert.equal((await api.put('/v1/config', { webhooks: { url: receiver.url } })).status, 200);
  const secret = (await api.get('/v1/webhooks/secret')).body.secret as string;
  assert.match(secret, /^whsec_/);
  const secrets = [secret];

  await t.test('the stored secret is ciphertext under the current key, and deliveries verify with the secret', async () => {
    const { rows } = await cluster.db.pool.query('select secret, key_id from webhook_secrets where environment_id = $1', [env.environmentId]);
    assert.ok(!rows[0].secret.includes(secret) && !rows[0].secret.includes(secret.slice(6)), 'not plaintext');
    assert.match(rows[0].secret, /^enc:v2:[0-9a-f]+:/);
    assert.ok(rows[0].key_id);
    await enqueue(cluster.db.pool, [publishedEvent(env.environmentId)]);
    await receiver.waitFor((r) => r.length >= 1, 'the first delivery');
    const first = receiver.received[0]!;
    assert.equal(verifyWebhookSignature(first.raw, first.headers['service-signature'], secret).ok, true);
  });

  await t.test('a secret rotation keeps both secrets encrypted and both signing', async () => {
    const rotated = (await api.post('/v1/webhooks/secret/rotate')).body.secret as string;
    secrets.push(rotated);
    const { rows } = await cluster.db.pool.query('select secret, previous_secret from webhook_secrets where environment_id = $1', [env.environmentId]);
    for (const value of [rows[0].secret, rows[0].previous_secret]) {
      assert.match(value, /^enc:v2:/);
      assert.ok(!value.includes(secret.slice(6)) && !value.includes(rotated.slice(6)));
    }
    await enqueue(cluster.db.pool, [publishedEvent(env.environmentId)]);
    await receiver.waitFor((r) => r.length >= 2, 'the second delivery');
    const second = receiver.received[1]!;
    assert.equal(verifyWebhookSignature(second.raw, second.headers['service-signature'], rotated).ok, true);
    assert.equal(verifyWebhookSignature(second.raw, second.headers['service-signature'], secret).ok, true);
  });

  const secondKey = key();
  await t.test('rotating the encryption key: old values stay readable, and each process re-encrypts at start', async () => {
    // a plaintext row from before encryption, as the migration leaves it
    const legacyEnv = await cluster.createEnvironment('legacy');
    const legacy = `whsec_${randomBytes(32).toString('base64url')}`;
    secrets.push(legacy);
    await cluster.db.pool.query('insert into webhook_secrets (environment_id, secret) values ($1, $2)', [legacyEnv.environmentId, legacy]);
    const before = await cluster.db.pool.query('select key_id from webhook_secrets where environment_id = $1', [env.environmentId]);
    // an endpoint's secret (its own table and row), rotated so that both of its columns hold one
    const endpoint = await api.post('/v1/webhook-endpoints', { url: receiver.url, eventTypes: ['webhook.test'] });
    const endpointSecret = (await api.post(`/v1/webhook-endpoints/${endpoint.body.id}/secret/rotate`)).body.secret as string;
    secrets.push(endpoint.body.secret, endpointSecret);

    await Promise.all(processes.map((proc) => proc.stop()));
    const newEnv = { SECRET_ENCRYPTION_KEY: secondKey, SECRET_ENCRYPTION_KEYS_OLD: firstKey };
    const gateway = await cluster.start('gateway', newEnv);
    const dispatcher = await cluster.start('dispatcher', newEnv);
    processes.push(gateway, dispatcher);
    api = client(gateway.controlUrl, env.secretKey);
    assert.equal((await api.get('/v1/webhooks/secret')).body.secret, secrets[1], 'the secret is the same after the key changed');
    assert.equal((await client(gateway.controlUrl, legacyEnv.secretKey).get('/v1/webhooks/secret')).body.secret, legacy);

    const { rows } = await cluster.db.pool.query('select environment_id, secret, key_id from webhook_secrets');
    assert.equal(rows.length, 2);
    assert.ok(
      rows.every((row) => row.key_id !== null && row.key_id !== before.rows[0].key_id),
      're-encrypted under the new key',
    );
    assert.ok(rows.every((row) => row.secret.startsWith(`enc:v2:${row.key_id}:`)));
    const stored = await cluster.db.pool.query('select secret, previous_secret, key_id from webhook_endpoints where id = $1', [endpoint.body.id]);
    assert.notEqual(stored.rows[0].key_id, before.rows[0].key_id, "the endpoint's secrets re-encrypted under the new key");
    assert.ok([stored.rows[0].secret, stored.rows[0].previous_secret].every((value: string) => value.startsWith(`enc:v2:${stored.rows[0].key_id}:`)));
    assert.equal((await api.get(`/v1/webhook-endpoints/${endpoint.body.id}/secret`)).body.secret, endpointSecret);

    await enqueue(cluster.db.pool, [publishedEvent(env.environmentId)]);
    await receiver.waitFor((r) => r.length >= 3, 'a delivery signed after the key rotation');
    const third = receiver.received[2]!;
    assert.equal(verifyWebhookSignature(third.raw, third.headers['service-signature'], secrets[1]!).ok, true);
  });

  await t.test('a key that opens nothing stored, or none in production, stops the process with 78 naming the variable', async () => {
    const unrelated = await startProcess('gateway', {
      ...cluster.env,
      NATS_URL: natsUrl,
      NATS_USER: 'rtm',
      NATS_PASSWORD: natsPassword,
      SECRET_ENCRYPTION_KEY: key(),
    }).then(
      () => assert.fail('started'),
      (error: Error) => error.message,
    );
    assert.match(unrelated, /exited \(78\)/);
    assert.match(unrelated, /SECRET_ENCRYPTION_KEYS_OLD/);
    const missing = await startProcess('dispatcher', { ...cluster.env, NODE_ENV: 'production', SECRET_ENCRYPTION_KEY: '' }).then(
      () => assert.fail('started'),
      (error: Error) => error.message,
    );
    assert.match(missing, /exited \(78\)/);
    assert.match(missing, /SECRET_ENCRYPTION_KEY: required when NODE_ENV=production/);
  });

  await t.test('a wrong NATS password fails the start without printing it', async () => {
    const wrong = `wrong-${randomBytes(6).toString('hex')}`;
    const message = await startProcess('dispatcher', {
      ...cluster.env,
      // wrong both in the URL and in the variable (the variable wins when both are set)
      NATS_URL: `nats://rtm:${wrong}@${natsUrl.slice('nats://'.length)}`,
      NATS_PASSWORD: wrong,
      SECRET_ENCRYPTION_KEY: secondKey,
    }).then(
      () => assert.fail('started'),
      (error: Error) => error.message,
    );
    assert.match(message, /cannot connect to NATS at nats:\/\/rtm@127\.0\.0\.1/);
    assert.ok(!message.includes(wrong));
  });

  await t.test('no secret, key or password in any process output', async () => {
    const output = processes.flatMap((proc) => proc.output).join('\n');
    assert.ok(output.length > 0);
    for (const value of [...secrets, ...secrets.map((s) => s.slice(6)), firstKey, secondKey, natsPassword]) {
      assert.ok(!output.includes(value), 'a secret appeared in process output');
    }
  });
});
