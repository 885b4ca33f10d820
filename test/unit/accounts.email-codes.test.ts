import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CODE_DIGITS, LogMailSender, codeMail, hashEmailCode, newEmailCode, typedCode } from '@rtm/accounts';

test('email codes - 8 random digits, leading zeros kept', () => {
  const seen = new Set<string>();
  for (let i = 0; i < 2_000; i++) {
    const code = newEmailCode();
    assert.match(code, new RegExp(`^\\d{${CODE_DIGITS}}$`));
    seen.add(code);
  }
  assert.ok(seen.size > 1_990, 'codes do not repeat');
});

test('email codes - as typed: spaces and dashes ignored, anything else refused', () => {
  assert.equal(typedCode('1234 5678'), '12345678');
  assert.equal(typedCode(' 0012-3456 '), '00123456');
  for (const bad of ['1234567', '123456789', '1234567a', '', '１２３４５６７８']) assert.equal(typedCode(bad), null, bad);
});

test('email codes - the stored hash binds the code to its address and purpose', () => {
  const base = hashEmailCode('a@example.com', 'verify', '12345678');
  assert.deepEqual(hashEmailCode('a@example.com', 'verify', '12345678'), base);
  assert.notDeepEqual(hashEmailCode('b@example.com', 'verify', '12345678'), base);
  assert.notDeepEqual(hashEmailCode('a@example.com', 'reset', '12345678'), base);
  assert.notDeepEqual(hashEmailCode('a@example.com', 'verify', '12345679'), base);
});

test('email codes - the mails: a code with its lifetime, or for a reset without an account, no code', () => {
  const verify = codeMail('a@example.com', 'verify', '01234567', 15 * 60_000);
  assert.match(verify.text, /01234567/);
  assert.match(verify.text, /15 minutes/);
  const reset = codeMail('a@example.com', 'reset', '76543210', 60_000);
  assert.match(reset.text, /76543210.*1 minute\b/);
  const none = codeMail('a@example.com', 'reset', null, 60_000);
  assert.doesNotMatch(`${none.subject} ${none.text}`, /\d{8}/);
  assert.match(none.text, /no account uses it/);
});

test('mail - the log sender writes the whole message to the log', async () => {
  const lines: [object, string][] = [];
  const sender = new LogMailSender({ info: (fields, message) => lines.push([fields, message]) });
  await sender.send({ to: 'a@example.com', subject: 'S', text: 'code 01234567', purpose: 'verify' });
  assert.deepEqual(lines, [[{ mail: { to: 'a@example.com', subject: 'S', purpose: 'verify', text: 'code 01234567' } }, 'mail to a@example.com: S']]);
});
