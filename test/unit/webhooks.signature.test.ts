/**
 * The `service-signature` scheme, signing side (libs/webhooks) against the verifier the server
 * SDK ships (@rtm/server's verifyWebhook / parseWebhook): v1 is hex HMAC-SHA256 of `<t>.<body>`
 * keyed with the whole `whsec_…` string. Pinned: a known-answer vector (receivers in other
 * languages implement this by hand, so it must never drift); verify(sign(x)) for any secret, body
 * and t; any changed byte of the body or digit of t is refused; t within the tolerance
 * (default 300 s, inclusive, either direction, whole seconds of `now`) and not beyond.
 * test/webhooks.verifier.test.ts covers header parsing and rotation.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { computeSignature, signatureHeader, verifyWebhookSignature } from '@rtm/webhooks';
import { parseWebhook, verifyWebhook, WebhookVerificationError } from '@rtm/server';

const SECRET = 'whsec_test';
const T = 1_700_000_000;
const BODY = '{"id":"msg_1","type":"message.published"}';

test('signature - known-answer vector, by hand with node:crypto and as a frozen literal', () => {
  const byHand = createHmac('sha256', SECRET).update(`${T}.${BODY}`, 'utf8').digest('hex');
  assert.equal(byHand, '56e6adc4c423ebbc74b69691d045328446ccc9f942cb672f2ad5f9d72d57bd72');
  assert.equal(computeSignature(SECRET, T, BODY), byHand);
  assert.equal(computeSignature(SECRET, T, Buffer.from(BODY)), byHand, 'bytes and string sign alike');
  assert.equal(signatureHeader([SECRET], T, BODY), `t=${T},v1=${byHand}`);
  assert.deepEqual(verifyWebhook(BODY, `t=${T},v1=${byHand}`, SECRET, { now: T * 1000 }), { ok: true, timestamp: T });
  assert.deepEqual(parseWebhook(BODY, `t=${T},v1=${byHand}`, SECRET, { now: T * 1000 }), JSON.parse(BODY));
});

const secretArb = fc.string({ minLength: 1, maxLength: 40 }).map((s) => `whsec_${s}`);
const bodyArb = fc.uint8Array({ minLength: 1, maxLength: 512 });
const tArb = fc.integer({ min: 1, max: 99_999_999_999 });

test('signature - the SDK verifies what the service signs, and refuses any changed body byte or t digit', () => {
  fc.assert(
    fc.property(secretArb, bodyArb, tArb, fc.nat(), fc.integer({ min: 1, max: 255 }), (secret, body, t, at, xor) => {
      const header = signatureHeader([secret], t, body);
      const now = t * 1000;
      assert.deepEqual(verifyWebhook(body, header, secret, { now }), { ok: true, timestamp: t });

      const tampered = Buffer.from(body);
      tampered[at % tampered.length]! ^= xor;
      assert.deepEqual(verifyWebhook(tampered, header, secret, { now }), { ok: false, reason: 'signature mismatch' });
      assert.throws(() => parseWebhook(tampered, header, secret, { now }), WebhookVerificationError);

      // a different t (within the tolerance, so only the signature can refuse it)
      const digits = String(t);
      const i = at % digits.length;
      const changedT = digits.slice(0, i) + String((Number(digits[i]) + 1 + (xor % 9)) % 10) + digits.slice(i + 1);
      const v1 = header.slice(header.indexOf('v1='));
      const moved = verifyWebhook(body, `t=${changedT},${v1}`, secret, { now: Number(changedT) * 1000 });
      assert.equal(moved.ok, false, `t ${t} -> ${changedT}`);
    }),
    { numRuns: 500 },
  );
});

test('signature - tolerance: inclusive at 300 s either way, whole seconds of now, configurable', () => {
  const header = signatureHeader([SECRET], T, BODY);
  const at = (nowMs: number, toleranceSeconds?: number) => verifyWebhookSignature(BODY, header, SECRET, { now: nowMs, toleranceSeconds });
  assert.equal(at((T + 300) * 1000).ok, true);
  assert.equal(at((T + 300) * 1000 + 999).ok, true, 'now is taken in whole seconds');
  assert.deepEqual(at((T + 301) * 1000), { ok: false, reason: 'timestamp outside the tolerance' });
  assert.equal(at((T - 300) * 1000).ok, true);
  assert.equal(at((T - 301) * 1000 + 999).ok, false, 'a t in the future beyond 300 s is refused too');
  assert.equal(at((T + 10) * 1000, 10).ok, true);
  assert.equal(at((T + 11) * 1000, 10).ok, false);
  assert.equal(at(T * 1000, 0).ok, true);
  assert.equal(at((T + 1) * 1000, 0).ok, false);
  // the tolerance is checked before the signature: a stale delivery is refused as stale
  assert.deepEqual(verifyWebhookSignature(BODY, `t=${T},v1=${'0'.repeat(64)}`, SECRET, { now: (T + 1000) * 1000 }), {
    ok: false,
    reason: 'timestamp outside the tolerance',
  });
});
