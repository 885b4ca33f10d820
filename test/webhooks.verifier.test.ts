import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { computeSignature, generateWebhookSecret, signatureHeader, verifyWebhookSignature } from '@rtm/webhooks';
import { webhookSecrets } from '../apps/dispatcher/src/delivery/secrets-in-grace.ts';

const NOW = 1_800_000_000_000;
const T = Math.floor(NOW / 1000);
const secretArb = fc.string({ minLength: 1, maxLength: 64 }).map((s) => `whsec_${s}`);
const bodyArb = fc.uint8Array({ maxLength: 2048 });

test('webhooks verifier - signatures agree with an independent HMAC and verify over the exact bytes', () => {
  fc.assert(
    fc.property(secretArb, bodyArb, fc.integer({ min: 0, max: 2 ** 33 }), (secret, body, t) => {
      const independent = createHmac('sha256', secret)
        .update(Buffer.concat([Buffer.from(`${t}.`), body]))
        .digest('hex');
      assert.equal(computeSignature(secret, t, body), independent);
      assert.equal(signatureHeader([secret], t, body), `t=${t},v1=${independent}`);
      assert.deepEqual(verifyWebhookSignature(body, `t=${t},v1=${independent}`, secret, { now: t * 1000 }), { ok: true, timestamp: t });
    }),
  );
});

test('webhooks verifier - any change to the body, the secret or the signature is refused', () => {
  fc.assert(
    fc.property(secretArb, secretArb, bodyArb, fc.nat(), (secret, other, body, flip) => {
      const header = signatureHeader([secret], T, body);
      if (body.length > 0) {
        const tampered = Buffer.from(body);
        tampered[flip % tampered.length]! ^= 1 << (flip % 8);
        assert.equal(verifyWebhookSignature(tampered, header, secret, { now: NOW }).ok, false);
      }
      if (other !== secret) assert.equal(verifyWebhookSignature(body, header, other, { now: NOW }).ok, false);
      const sig = header.slice(header.indexOf('v1=') + 3);
      const i = flip % sig.length;
      const changed = sig.slice(0, i) + (sig[i] === '0' ? '1' : '0') + sig.slice(i + 1);
      const result = verifyWebhookSignature(body, `t=${T},v1=${changed}`, secret, { now: NOW });
      assert.deepEqual(result, { ok: false, reason: 'signature mismatch' });
    }),
  );
});

test('webhooks verifier - refuses a missing header, missing t or v1, bad length, and t outside the tolerance', () => {
  const secret = generateWebhookSecret();
  assert.match(secret, /^whsec_[A-Za-z0-9+/]{44}$/);
  const body = '{"id":"msg_1"}';
  const v1 = computeSignature(secret, T, body);
  const refuse = (header: string | undefined, reason: RegExp, now = NOW) => {
    const result = verifyWebhookSignature(body, header, secret, { now });
    assert.equal(result.ok, false, String(header));
    assert.match((result as { reason: string }).reason, reason);
  };
  refuse(undefined, /missing/);
  refuse('', /missing/);
  refuse(`v1=${v1}`, /no t/);
  refuse(`t=${T}`, /no v1/);
  refuse(`t=abc,v1=${v1}`, /malformed t/);
  refuse(`t=${T},v1=${v1.slice(0, 63)}`, /length/);
  refuse(`t=${T},v1=${v1}00`, /length/);
  refuse(`t=${T},v1=`, /length/);
  // tolerance: 5 minutes by default, both directions
  assert.equal(verifyWebhookSignature(body, `t=${T},v1=${v1}`, secret, { now: NOW + 300_000 }).ok, true);
  refuse(`t=${T},v1=${v1}`, /tolerance/, NOW + 301_000);
  assert.equal(verifyWebhookSignature(body, `t=${T},v1=${v1}`, secret, { now: NOW - 300_000 }).ok, true);
  refuse(`t=${T},v1=${v1}`, /tolerance/, NOW - 301_000);
  assert.equal(verifyWebhookSignature(body, `t=${T},v1=${v1}`, secret, { now: NOW + 3_600_000, toleranceSeconds: 3600 }).ok, true);
});

test('webhooks verifier - any matching v1 is enough (rotation: new and old), in any order, with spaces', () => {
  const [fresh, old] = [generateWebhookSecret(), generateWebhookSecret()];
  const body = Buffer.from('{"id":"msg_2","data":{"text":"h\\u00e9llo ✓"}}');
  const header = signatureHeader([fresh, old], T, body);
  assert.equal(header.split(',').length, 3);
  assert.equal(verifyWebhookSignature(body, header, fresh, { now: NOW }).ok, true);
  assert.equal(verifyWebhookSignature(body, header, old, { now: NOW }).ok, true);
  assert.equal(verifyWebhookSignature(body, header, generateWebhookSecret(), { now: NOW }).ok, false);
  const [t, a, b] = header.split(',');
  assert.equal(verifyWebhookSignature(body, `${b}, ${t} ,${a}`, old, { now: NOW }).ok, true);
  assert.equal(verifyWebhookSignature(body, `t=${T},v1=short,${a}`, fresh, { now: NOW }).ok, true);
  // the string and byte forms of the same body verify alike; a re-serialised body does not
  assert.equal(verifyWebhookSignature(body.toString('utf8'), header, fresh, { now: NOW }).ok, true);
  const reserialised = JSON.stringify(JSON.parse(body.toString('utf8')));
  assert.equal(verifyWebhookSignature(reserialised, header, fresh, { now: NOW }).ok, false);
});

test('webhooks verifier - the previous secret signs for 24 h after a rotation, then stops', () => {
  const rotatedAt = new Date(NOW);
  const row = { secret: 'whsec_new', previous_secret: 'whsec_old', rotated_at: rotatedAt };
  assert.deepEqual(webhookSecrets(row, NOW + 1000), ['whsec_new', 'whsec_old']);
  assert.deepEqual(webhookSecrets(row, NOW + 24 * 3600_000 - 1), ['whsec_new', 'whsec_old']);
  assert.deepEqual(webhookSecrets(row, NOW + 24 * 3600_000), ['whsec_new']);
  assert.deepEqual(webhookSecrets({ secret: 'whsec_a', previous_secret: null, rotated_at: null }), ['whsec_a']);
});
