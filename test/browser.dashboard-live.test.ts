import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { launchBrowser } from './helpers/browser.ts';
import { startCluster } from './helpers/cluster.ts';
import { DashboardClient, createUser } from './helpers/dashboard.ts';
import { eventually } from './helpers/eventually.ts';
import { request } from './helpers/http.ts';
import { startReceiver } from './helpers/webhook-receiver.ts';

const PASSWORD = 'correct horse battery';
/** The 400 of the refused webhook URL, which the test causes on purpose (see browser.dashboard.test.ts). */
const EXPECTED_REFUSAL = /Failed to load resource: the server responded with a status of 400\b/;

async function expectHeading(page: Page, text: string): Promise<void> {
  await page.locator('main h1', { hasText: text }).first().waitFor({ timeout: 10_000 });
  assert.equal(await page.locator('main h1').first().textContent(), text);
}

async function waitLive(page: Page): Promise<void> {
  await page
    .getByTestId('live-status')
    .filter({ hasText: /^Live$/ })
    .waitFor({ timeout: 10_000 });
}

test('dashboard UI - live message browser, retraction, webhooks and the live log', async (t) => {
  // one retry 1 s after the first attempt, then dropped
  const cluster = await startCluster(t, { channelNodes: 1, dispatchers: 1, env: { WEBHOOK_RETRY_SCHEDULE: '1s' } });
  const base = cluster.gateways[0]!.controlUrl;
  const owner = await createUser(cluster.db.pool, { email: 'ada@example.com', password: PASSWORD, organization: 'acme', role: 'owner' });
  const api = new DashboardClient(base);
  assert.equal((await api.signIn('ada@example.com', PASSWORD)).status, 200);
  const project = await api.post(`/v1/dashboard/organizations/${owner.organizationId}/projects`, { name: 'chat' });
  const envId: string = (await api.post(`/v1/dashboard/projects/${project.body.id}/environments`, { name: 'prod' })).body.id;
  const secretKey: string = (await api.post(`/v1/dashboard/environments/${envId}/keys`, { kind: 'secret' })).body.key;
  let failing = true;
  const receiver = await startReceiver(t, () => ({ status: failing ? 500 : 204 }));
  const publish = async (channelId: string, text: string) => {
    const res = await request(base, 'POST', `/v1/channels/${channelId}/messages`, {
      token: secretKey,
      body: { type: 'chat', senderId: 'alice', content: { text } },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body as { id: string; seq: number };
  };

  const browser = await launchBrowser(t);
  const page = await browser.newPage();
  await page.goto(`${base}/dashboard`);
  await page.getByLabel('E-mail').fill('ada@example.com');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByLabel('Password').press('Enter');
  await expectHeading(page, 'acme');

  await t.test('the page may open WebSockets to the realtime edge, and nowhere else', async () => {
    const res = await fetch(`${base}/dashboard`);
    const csp = res.headers.get('content-security-policy') ?? '';
    const realtimePort = new URL(cluster.gateways[0]!.realtimeUrl).port;
    assert.match(csp, new RegExp(`connect-src 'self' ws://127\\.0\\.0\\.1:${realtimePort}(;|$)`));
  });

  let messageId = '';
  await t.test('a message published through the public API appears in the open channel within 2 s', async () => {
    await page.goto(`${base}/dashboard/environments/${envId}`);
    await expectHeading(page, 'prod');
    await page.getByRole('navigation', { name: 'Environment' }).getByRole('link', { name: 'Messages' }).click();
    await expectHeading(page, 'Messages');
    await page.getByLabel('Channel id').fill('room-1');
    await page.getByRole('button', { name: 'Open channel' }).click();
    await expectHeading(page, 'room-1');
    await waitLive(page);
    const messages = page.getByRole('region', { name: 'Messages' });
    assert.equal(await messages.getByText('No messages (with these filters).').count(), 1);

    const published = await publish('room-1', 'hello from the API');
    messageId = published.id;
    // the view is told by the live log and reads the page again: no reload, no polling
    await messages.locator('tbody tr', { hasText: 'hello from the API' }).waitFor({ timeout: 2_000 });
    const cells = await messages.locator('tbody tr').first().locator('td').allTextContents();
    assert.equal(cells[0], String(published.seq));
    assert.equal(cells[2], 'alice (server)');
    assert.equal(cells[3], 'chat');
  });

  await t.test('the filters: by sender and type', async () => {
    await publish('room-1', 'second');
    await request(base, 'POST', '/v1/channels/room-1/messages', { token: secretKey, body: { type: 'notice', senderId: 'bob', content: { text: 'from bob' } } });
    const messages = page.getByRole('region', { name: 'Messages' });
    await messages.locator('tbody tr', { hasText: 'from bob' }).waitFor({ timeout: 10_000 });
    assert.equal(await messages.locator('tbody tr').count(), 3);
    await messages.getByLabel('Sender id').fill('bob');
    await messages.getByRole('button', { name: 'Apply filters' }).click();
    await eventually("only bob's message is listed", async () => (await messages.locator('tbody tr').count()) === 1, 10_000);
    await messages.getByLabel('Sender id').fill('');
    await messages.getByLabel('Type').fill('chat');
    await messages.getByRole('button', { name: 'Apply filters' }).click();
    await eventually('only the chat messages are listed', async () => (await messages.locator('tbody tr').count()) === 2, 10_000);
    assert.equal(await messages.locator('tbody tr', { hasText: 'from bob' }).count(), 0);
  });

  await t.test('retracting with a reason shows the tombstone, in the message and in the channel', async () => {
    await page.getByRole('link', { name: 'Open message 1' }).click();
    await expectHeading(page, 'Message 1');
    await page.getByText('"hello from the API"').waitFor({ timeout: 10_000 });
    const retract = page.getByRole('form', { name: 'Retract the message' });
    await retract.getByLabel('Reason').fill('spam');
    await retract.getByRole('button', { name: 'Retract message' }).click();
    await page.getByTestId('tombstone').waitFor({ timeout: 10_000 });
    assert.equal(await page.getByText('"hello from the API"').count(), 0, 'the content is gone from the page');
    assert.equal(await page.getByRole('form', { name: 'Retract the message' }).count(), 0);
    const stored = await api.get(`/v1/dashboard/environments/${envId}/channels/room-1/messages/${messageId}`);
    assert.equal(stored.body.retracted, true);
    assert.equal(stored.body.content, null);

    await page.locator('.crumbs').getByRole('link', { name: 'room-1' }).click();
    await expectHeading(page, 'room-1');
    const row = page.getByRole('region', { name: 'Messages' }).locator('tbody tr').last();
    assert.equal(await row.locator('td').first().textContent(), '1');
    await row.locator('.tombstone', { hasText: 'retracted' }).waitFor({ timeout: 10_000 });
  });

  await t.test('a webhook URL the validator refuses shows its reason and deploys nothing; a good one is deployed', async () => {
    await page.getByRole('navigation', { name: 'Environment' }).getByRole('link', { name: 'Webhooks' }).click();
    await expectHeading(page, 'Webhooks');
    const deploy = page.getByRole('form', { name: 'Deploy a webhook URL' });
    await deploy.getByLabel('Webhook URL').fill('https://10.1.2.3/hook');
    await deploy.getByRole('button', { name: 'Deploy' }).click();
    const reason = deploy.getByRole('alert').filter({ hasText: 'invalid_request' });
    await reason.waitFor({ timeout: 10_000 });
    assert.match((await reason.textContent()) ?? '', /private|address|not allowed/i);
    assert.equal(await page.getByTestId('webhook-url').textContent(), 'Delivery is off: no URL is deployed.');
    assert.equal((await api.get(`/v1/dashboard/environments/${envId}/webhook`)).body.url, null);

    await deploy.getByLabel('Webhook URL').fill(receiver.url);
    await deploy.getByRole('button', { name: 'Deploy' }).click();
    await page.getByTestId('webhook-url').filter({ hasText: receiver.url }).waitFor({ timeout: 10_000 });
    await page.getByRole('button', { name: 'Reveal secret' }).click();
    const shown = (await page.getByTestId('webhook-secret').textContent({ timeout: 10_000 })) ?? '';
    const secret = await request(base, 'GET', '/v1/webhooks/secret', { token: secretKey });
    assert.equal(shown, secret.body.secret);
  });

  await t.test('the live log shows a publish as it happens', async () => {
    await page.getByRole('navigation', { name: 'Environment' }).getByRole('link', { name: 'Live log' }).click();
    await expectHeading(page, 'Live log');
    await waitLive(page);
    const published = await publish('room-2', 'for the log');
    const row = page.getByRole('table', { name: 'Log events' }).locator('tr[data-event="message.published"]', { hasText: published.id });
    await row.waitFor({ timeout: 10_000 });
    assert.match((await row.textContent()) ?? '', /room-2/);
    // the filter hides what does not match
    await page.getByLabel('Event contains').fill('webhook.');
    await row.waitFor({ state: 'hidden', timeout: 10_000 });
  });

  await t.test("the ledger: a failing receiver's delivery is dropped, its attempts are listed, and a retry delivers it", async () => {
    await page.getByRole('navigation', { name: 'Environment' }).getByRole('link', { name: 'Webhooks' }).click();
    await expectHeading(page, 'Webhooks');
    const ledger = page.getByRole('region', { name: 'Deliveries' });
    await ledger.getByLabel('Status').selectOption('dropped');
    await ledger.getByRole('button', { name: 'Show' }).click();
    // the log's webhook events refresh the ledger: no reload (the unfiltered list shown before the
    // filter applies has the same row as pending: wait for the dropped one)
    const dropped = ledger.locator('tbody tr', { hasText: 'room-2' }).filter({ has: page.locator('.badge.dropped') });
    await dropped.waitFor({ timeout: 20_000 });
    assert.equal(await ledger.locator('tbody .badge:not(.dropped)').count(), 0, 'only dropped deliveries are listed');
    await dropped.getByRole('link', { name: /^Open delivery/ }).click();
    await expectHeading(page, 'Delivery');
    const attempts = page.getByRole('region', { name: 'Attempts' }).locator('tbody tr');
    assert.equal(await attempts.count(), 2);
    assert.equal(await attempts.first().locator('td').nth(1).textContent(), '500');
    failing = false;
    await page.getByRole('button', { name: 'Retry now' }).click();
    await eventually(
      'the retried delivery is delivered',
      async () => {
        await page.reload();
        await expectHeading(page, 'Delivery');
        return (await page.locator('dl.facts .badge').textContent()) === 'delivered';
      },
      20_000,
    );
    assert.equal(await page.getByRole('button', { name: 'Retry now' }).count(), 0);
  });

  const unexpected = browser.errors.filter((line) => !EXPECTED_REFUSAL.test(line));
  assert.deepEqual(unexpected, [], `console errors:\n${browser.console.join('\n')}`);
});
