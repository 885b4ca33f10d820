import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redactWebhookUrl, withRedactedUrl } from '@rtm/webhooks';

test('redactWebhookUrl masks what may carry a credential and keeps what tells endpoints apart', () => {
  const cases: [string, string][] = [
    ['https://hooks.example.com/in', 'https://hooks.example.com/in'],
    ['https://hooks.example.com:8443/a/b/', 'https://hooks.example.com:8443/a/b/'],
    ['https://hooks.example.com/in?token=s3cr3t', 'https://hooks.example.com/in?token=***'],
    ['https://hooks.example.com/in?a=1&token=s3cr3t&b=', 'https://hooks.example.com/in?a=***&token=***&b=***'],
    ['https://hooks.example.com/in?s3cr3t', 'https://hooks.example.com/in?***'],
    ['https://hooks.example.com/in?x=1&&y=a=b', 'https://hooks.example.com/in?x=***&&y=***'],
    ['https://hooks.example.com/in?', 'https://hooks.example.com/in'],
    ['https://user:pa55@hooks.example.com/in', 'https://***@hooks.example.com/in'],
    ['https://user@hooks.example.com/in', 'https://***@hooks.example.com/in'],
    ['https://hooks.example.com/in?k=v#s3cr3t', 'https://hooks.example.com/in?k=***'],
    ['http://[::1]:3000/hook?sig=abc%20def', 'http://[::1]:3000/hook?sig=***'],
    ['not a url s3cr3t', '***'],
  ];
  for (const [url, shown] of cases) assert.equal(redactWebhookUrl(url), shown, url);
  for (const [url] of cases) assert.ok(!redactWebhookUrl(url).includes('s3cr3t') && !redactWebhookUrl(url).includes('pa55'), url);
});

test("withRedactedUrl redacts a row's url and leaves its other fields and a null url alone", () => {
  assert.deepEqual(withRedactedUrl({ id: 'ep_1', url: 'https://h.example.com/?t=x' }), { id: 'ep_1', url: 'https://h.example.com/?t=***' });
  const none = { url: null, deploymentId: null };
  assert.equal(withRedactedUrl(none), none);
});
