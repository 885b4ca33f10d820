import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkWebhookUrl } from '@rtm/rules';

const LOOPBACK = ['http://localhost:3000/hooks', 'https://localhost/hooks', 'http://127.0.0.1:8080/', 'http://[::1]:9000/in'];

test('url policy - loopback hosts are allowed only when the switch is on', () => {
  for (const url of LOOPBACK) {
    assert.equal(checkWebhookUrl(url, { allowLoopback: true }).ok, true, url);
    const verdict = checkWebhookUrl(url, { allowLoopback: false });
    assert.equal(verdict.ok, false, url);
    if (!verdict.ok) assert.match(verdict.reason, /loopback/, url);
  }
});

test('url policy - with the switch off, public https hosts still pass and other spellings of loopback stay refused', () => {
  assert.equal(checkWebhookUrl('https://example.com/hooks', { allowLoopback: false }).ok, true);
  for (const url of ['http://0x7f000001/', 'https://127.0.0.2/', 'https://[::ffff:127.0.0.1]/', 'http://localhost./']) {
    assert.equal(checkWebhookUrl(url, { allowLoopback: false }).ok, false, url);
  }
  const http = checkWebhookUrl('http://example.com/', { allowLoopback: false });
  assert.ok(!http.ok && !/localhost/.test(http.reason), 'the reason does not offer loopback when it is off');
});
