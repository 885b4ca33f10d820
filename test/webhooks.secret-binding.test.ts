import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { startCluster, startProcess } from './helpers/cluster.ts';
import { client, errorCode } from './helpers/http.ts';

const key = () => randomBytes(32).toString('base64');
const keyId = (text: string) => createHash('sha256').update(Buffer.from(text, 'base64')).digest('hex').slice(0, 16);

/** A value in the earlier stored form (`enc:v1`, the environment id alone as AAD), as older processes wrote it. */
function encryptV1(keyText: string, plaintext: string, environmentId: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(keyText, 'base64'), iv);
  cipher.setAAD(Buffer.from(environmentId, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `enc:v1:${keyId(keyText)}:${[iv, ciphertext, cipher.getAuthTag()].map((part) => part.toString('base64url')).join(':')}`;
}

test('webhooks - secrets at rest are bound to their row and column; the earlier form is upgraded; production reads no plaintext', async (t) => {
  const encryptionKey = key();
  const cluster = await startCluster(t, { gateways: 1, env: { SECRET_ENCRYPTION_KEY: encryptionKey } });
  const receiverUrl = 'https://hooks.example.com/rtm';
  const env = await cluster.createEnvironment();
  let api = client(cluster.gateways[0]!.controlUrl, env.secretKey);
  assert.equal((await api.put('/v1/config', { webhooks: { url: receiverUrl } })).status, 200);
  const first = (await api.get('/v1/webhooks/secret')).body.secret as string;
  const second = (await api.post('/v1/webhooks/secret/rotate')).body.secret as string;
  assert.notEqual(first, second);
  const pool = cluster.db.pool;

  await t.test('swapping the secret and previous_secret columns makes the secret unreadable, not the old one current', async () => {
    const saved = (await pool.query('select secret, previous_secret from webhook_secrets where environment_id = $1', [env.environmentId])).rows[0];
    await pool.query('update webhook_secrets set secret = previous_secret, previous_secret = secret where environment_id = $1', [env.environmentId]);
    const swapped = await api.get('/v1/webhooks/secret');
    assert.notEqual(swapped.body.secret, first, 'the previous secret must not read as the current one');
    assert.equal(swapped.status, 500);
    assert.equal(errorCode(swapped), 'internal');
    await pool.query('update webhook_secrets set secret = $2, previous_secret = $3 where environment_id = $1', [
      env.environmentId,
      saved.secret,
      saved.previous_secret,
    ]);
    assert.equal((await api.get('/v1/webhooks/secret')).body.secret, second);
  });

  await t.test('a value in the earlier form is still read, and rewritten in the current form at start', async () => {
    const legacyEnv = await cluster.createEnvironment('legacy');
    const current = `whsec_${randomBytes(32).toString('base64url')}`;
    const previous = `whsec_${randomBytes(32).toString('base64url')}`;
    await pool.query(`insert into webhook_secrets (environment_id, secret, previous_secret, rotated_at, key_id) values ($1, $2, $3, now(), $4)`, [
      legacyEnv.environmentId,
      encryptV1(encryptionKey, current, legacyEnv.environmentId),
      encryptV1(encryptionKey, previous, legacyEnv.environmentId),
      keyId(encryptionKey),
    ]);
    await cluster.gateways[0]!.stop();
    const gateway = await cluster.start('gateway', { SECRET_ENCRYPTION_KEY: encryptionKey });
    api = client(gateway.controlUrl, env.secretKey);
    const { rows } = await pool.query('select secret, previous_secret from webhook_secrets where environment_id = $1', [legacyEnv.environmentId]);
    assert.match(rows[0].secret, /^enc:v2:/);
    assert.match(rows[0].previous_secret, /^enc:v2:/);
    assert.equal((await client(gateway.controlUrl, legacyEnv.secretKey).get('/v1/webhooks/secret')).body.secret, current);
    // the upgraded value is bound to its column: swapped, it no longer reads
    await pool.query('update webhook_secrets set secret = previous_secret, previous_secret = secret where environment_id = $1', [legacyEnv.environmentId]);
    assert.equal((await client(gateway.controlUrl, legacyEnv.secretKey).get('/v1/webhooks/secret')).status, 500);
    await pool.query('delete from webhook_secrets where environment_id = $1', [legacyEnv.environmentId]);
  });

  await t.test('with NODE_ENV=production a plaintext secret is refused: the process stops with 78 and names the environment', async () => {
    const plainEnv = await cluster.createEnvironment('plain');
    const plaintext = `whsec_${randomBytes(32).toString('base64url')}`;
    await pool.query('insert into webhook_secrets (environment_id, secret) values ($1, $2)', [plainEnv.environmentId, plaintext]);
    const message = await startProcess('gateway', { ...cluster.env, NODE_ENV: 'production', SECRET_ENCRYPTION_KEY: encryptionKey }).then(
      () => assert.fail('started'),
      (error: Error) => error.message,
    );
    assert.match(message, /exited \(78\)/);
    assert.match(message, /plaintext, which NODE_ENV=production refuses/);
    assert.ok(message.includes(plainEnv.environmentId));
    assert.ok(!message.includes(plaintext));
    const { rows } = await pool.query('select secret from webhook_secrets where environment_id = $1', [plainEnv.environmentId]);
    assert.equal(rows[0].secret, plaintext, 'left as it was');
    // development reads it once and encrypts it
    const gateway = await cluster.start('gateway', { SECRET_ENCRYPTION_KEY: encryptionKey });
    const after = await pool.query('select secret from webhook_secrets where environment_id = $1', [plainEnv.environmentId]);
    assert.match(after.rows[0].secret, /^enc:v2:/);
    assert.equal((await client(gateway.controlUrl, plainEnv.secretKey).get('/v1/webhooks/secret')).body.secret, plaintext);
  });
});
