import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { launchBrowser } from './helpers/browser.ts';
import { startCluster } from './helpers/cluster.ts';
import { DashboardClient, createUser } from './helpers/dashboard.ts';
import { eventually } from './helpers/eventually.ts';
import { request } from './helpers/http.ts';
import { startReceiver, type ReceivedWebhook } from './helpers/webhook-receiver.ts';

const PASSWORD = 'correct horse battery';
/** The 400 of a test event sent to a disabled endpoint, which the test causes on purpose. */
const EXPECTED_REFUSAL = /Failed to load resource: the server responded with a status of 400\b/;
/** A phone's width: every view must fit it without scrolling sideways. */
const PHONE = { width: 390, height: 844 };

async function expectHeading(page: Page, text: string): Promise<void> {
  // exactly: "Webhook endpoint" is part of "Webhook endpoints"
  await page
    .locator('main h1')
    .filter({ hasText: new RegExp(`^${text}$`) })
    .first()
    .waitFor({ timeout: 10_000 });
  assert.equal(await page.locator('main h1').first().textContent(), text);
}

/** The page is no wider than the viewport (tables scroll inside their own box). */
async function expectFits(page: Page, where: string): Promise<void> {
  const width = (await page.evaluate('document.documentElement.scrollWidth')) as number;
  if (width <= PHONE.width) return;
  // name what sticks out, for the failure report
  const wide = await page.evaluate(`[...document.querySelectorAll('body *')]
    .filter((e) => e.getBoundingClientRect().right > ${PHONE.width} && !e.closest('.table-wrap'))
    .slice(0, 8).map((e) => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right)).join(', ')`);
  assert.fail(`${where} is ${width} px wide at ${PHONE.width} px: ${wide}`);
}

const typeOf = (received: ReceivedWebhook) => (JSON.parse(received.raw.toString('utf8')) as { type: string }).type;
const channelOf = (received: ReceivedWebhook) => (JSON.parse(received.raw.toString('utf8')) as { channelId?: string }).channelId;

test('dashboard UI - webhook endpoints: create with a filter, test event, disable and enable, ledger per endpoint, recovery, delete', async (t) => {
  // one retry 1 s after the first attempt, then dropped
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1, dispatchers: 1, env: { WEBHOOK_RETRY_SCHEDULE: '1s' } });
  const base = cluster.gateways[0]!.controlUrl;
  const owner = await createUser(cluster.db.pool, { email: 'ada@example.com', password: PASSWORD, organization: 'acme', role: 'owner' });
  const api = new DashboardClient(base);
  assert.equal((await api.signIn('ada@example.com', PASSWORD)).status, 200);
  const project = await api.post(`/v1/dashboard/organizations/${owner.organizationId}/projects`, { name: 'chat' });
  const envId: string = (await api.post(`/v1/dashboard/projects/${project.body.id}/environments`, { name: 'prod' })).body.id;
  const secretKey: string = (await api.post(`/v1/dashboard/environments/${envId}/keys`, { kind: 'secret' })).body.key;
  let healthy = true;
  const receiver = await startReceiver(t, () => ({ status: healthy ? 200 : 500 }));
  // the default endpoint (the deployed URL) gets every event, to a receiver of its own
  const fallback = await startReceiver(t);
  assert.equal((await api.put(`/v1/dashboard/environments/${envId}/webhook`, { url: fallback.url })).status, 200);
  const publish = async (channelId: string, text: string) => {
    const res = await request(base, 'POST', `/v1/channels/${channelId}/messages`, { token: secretKey, body: { senderId: 'alice', content: { text } } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
  };

  const browser = await launchBrowser(t);
  const page = await browser.newPage({ viewport: PHONE });
  page.on('dialog', (dialog) => void dialog.accept());
  await page.goto(`${base}/dashboard`);
  await page.getByLabel('E-mail').fill('ada@example.com');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByLabel('Password').press('Enter');
  await expectHeading(page, 'acme');

  let endpointId = '';
  await t.test('from the webhooks page to the endpoints, and one created with an event-type and a channel filter', async () => {
    await page.goto(`${base}/dashboard/environments/${envId}/webhooks`);
    await expectHeading(page, 'Webhooks');
    await page.getByRole('link', { name: 'Manage webhook endpoints' }).click();
    await expectHeading(page, 'Webhook endpoints');
    await page.getByText('No endpoints yet').waitFor({ timeout: 10_000 });
    const create = page.getByRole('form', { name: 'Create an endpoint' });
    await create.getByLabel('Endpoint URL').fill(receiver.url);
    await create.getByLabel('Description').fill('billing');
    await create.getByRole('group', { name: 'Event types' }).getByLabel('message.published').check();
    await create.getByLabel(/^Channels/).fill('room-*');
    // from the keyboard
    await create.getByLabel('Description').press('Enter');
    const secret = (await page.getByTestId('endpoint-secret').textContent({ timeout: 10_000 })) ?? '';
    assert.match(secret, /^whsec_/);
    const listed = page.getByRole('region', { name: 'Endpoints' }).locator('tbody tr', { hasText: receiver.url });
    await listed.waitFor({ timeout: 10_000 });
    assert.match((await listed.textContent()) ?? '', /billing.*message\.published.*room-\*.*enabled/);
    await expectFits(page, 'the endpoints page');

    const stored = (await api.get(`/v1/dashboard/environments/${envId}/webhook-endpoints`)).body.data;
    assert.equal(stored.length, 1);
    assert.deepEqual([stored[0].url, stored[0].eventTypes, stored[0].channels, stored[0].disabled], [receiver.url, ['message.published'], ['room-*'], false]);
    endpointId = stored[0].id;
    const byKey = await request(base, 'GET', `/v1/webhook-endpoints/${endpointId}/secret`, { token: secretKey });
    assert.equal(byKey.body.secret, secret, "the secret shown is the endpoint's");

    await listed.getByRole('link', { name: /^Open endpoint/ }).click();
    await expectHeading(page, 'Webhook endpoint');
    assert.equal(await page.getByTestId('endpoint-url').textContent(), receiver.url);
    await page.getByRole('button', { name: 'Reveal secret' }).click();
    assert.equal(await page.getByTestId('endpoint-secret').textContent({ timeout: 10_000 }), secret);
  });

  await t.test("a test event arrives at the receiver and shows delivered in the endpoint's ledger", async () => {
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByTestId('test-sent').waitFor({ timeout: 10_000 });
    await receiver.waitFor((r) => r.some((x) => typeOf(x) === 'webhook.test'), 'the test event');
    const ledger = page.getByRole('region', { name: 'Deliveries' });
    await ledger
      .locator('tbody tr', { hasText: 'webhook.test' })
      .filter({ has: page.locator('.badge.delivered') })
      .waitFor({ timeout: 20_000 });
    assert.equal(fallback.received.filter((x) => typeOf(x) === 'webhook.test').length, 0, 'a test goes to its endpoint only');
    await expectFits(page, 'the endpoint page');
  });

  await t.test('disabled, a test event is refused with the reason; enabled again, it is sent', async () => {
    const card = page.getByRole('region', { name: 'Endpoint', exact: true });
    await card.getByRole('button', { name: 'Disable endpoint' }).click();
    await page.getByTestId('endpoint-state').filter({ hasText: 'disabled' }).waitFor({ timeout: 10_000 });
    assert.equal((await api.get(`/v1/dashboard/environments/${envId}/webhook-endpoints/${endpointId}`)).body.disabled, true);
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByRole('form', { name: 'Send a test event' }).getByRole('alert').filter({ hasText: 'disabled' }).waitFor({ timeout: 10_000 });
    await card.getByRole('button', { name: 'Enable endpoint' }).click();
    await page
      .getByTestId('endpoint-state')
      .filter({ hasText: /^enabled$/ })
      .waitFor({ timeout: 10_000 });
    assert.equal((await api.get(`/v1/dashboard/environments/${envId}/webhook-endpoints/${endpointId}`)).body.disabled, false);

    // the change form starts from the endpoint's values; a changed description is saved, the filters kept
    const change = page.getByRole('form', { name: 'Change the endpoint' });
    assert.equal(await change.getByLabel('Description').inputValue(), 'billing');
    assert.equal(await change.getByRole('group', { name: 'Event types' }).getByLabel('message.published').isChecked(), true);
    await change.getByLabel('Description').fill('billing, EU');
    await change.getByRole('button', { name: 'Save changes' }).click();
    await card.locator('dd', { hasText: 'billing, EU' }).waitFor({ timeout: 10_000 });
    const changed = (await api.get(`/v1/dashboard/environments/${envId}/webhook-endpoints/${endpointId}`)).body;
    assert.deepEqual([changed.description, changed.eventTypes, changed.channels], ['billing, EU', ['message.published'], ['room-*']]);
  });

  await t.test("recovery: deliveries dropped by a failing receiver are sent again and the task's progress is shown", async () => {
    healthy = false;
    await publish('lobby', 'not for the endpoint');
    await publish('room-1', 'first');
    await publish('room-1', 'second');
    const ledger = page.getByRole('region', { name: 'Deliveries' });
    await ledger.getByLabel('Status').selectOption('dropped');
    await ledger.getByRole('button', { name: 'Show' }).click();
    // the live log's webhook events refresh the ledger
    await eventually('both deliveries are dropped', async () => (await ledger.locator('tbody tr .badge.dropped').count()) === 2, 30_000);
    assert.equal(await ledger.locator('tbody tr', { hasText: 'lobby' }).count(), 0, 'the channel filter kept lobby out');
    assert.ok(receiver.received.every((x) => channelOf(x) !== 'lobby'));

    healthy = true;
    await page.getByRole('button', { name: 'Recover' }).click();
    const progress = page.getByTestId('task-status');
    await progress.filter({ hasText: 'Recovery completed: 2 dropped deliveries queued again.' }).waitFor({ timeout: 20_000 });
    assert.match(new URL(page.url()).search, /^\?task=wtk_/);
    await receiver.waitFor((r) => r.filter((x) => x.headers['webhook-id'] && channelOf(x) === 'room-1').length >= 6, '4 failed attempts, 2 recovered');
    await ledger.getByLabel('Status').selectOption('delivered');
    await ledger.getByRole('button', { name: 'Show' }).click();
    await eventually(
      'both deliveries are delivered',
      async () =>
        (await ledger
          .locator('tbody tr', { hasText: 'room-1' })
          .filter({ has: page.locator('.badge.delivered') })
          .count()) === 2,
      20_000,
    );
    // a reload shows the task again from the address
    await page.reload();
    await expectHeading(page, 'Webhook endpoint');
    await progress.filter({ hasText: 'Recovery completed' }).waitFor({ timeout: 10_000 });
  });

  await t.test('the webhooks page filters the ledger by endpoint, the default one included', async () => {
    await page.goto(`${base}/dashboard/environments/${envId}/webhooks`);
    await expectHeading(page, 'Webhooks');
    const ledger = page.getByRole('region', { name: 'Deliveries' });
    const rows = (text: string) => ledger.locator('tbody tr', { hasText: text }).count();
    // the unfiltered list is on screen until the filtered one replaces it: wait for what only the filtered one shows
    await ledger.getByLabel('Endpoint').selectOption('default');
    await ledger.getByRole('button', { name: 'Show' }).click();
    await eventually("the default endpoint's deliveries only", async () => (await rows('lobby')) > 0 && (await rows(endpointId)) === 0);
    assert.equal(await rows('webhook.test'), 0);
    await ledger.getByLabel('Endpoint').selectOption(endpointId);
    await ledger.getByRole('button', { name: 'Show' }).click();
    await eventually("the endpoint's deliveries only", async () => (await rows('lobby')) === 0 && (await rows('webhook.test')) > 0);
    assert.equal(await ledger.locator('tbody tr').count(), 3, 'the test event and the two recovered deliveries');
    assert.equal(await rows(endpointId), 3);
    await expectFits(page, 'the webhooks page');
  });

  await t.test("deleted, the endpoint is gone from the list; every change is in the audit log under the member, the key's reveal under the key", async () => {
    await page.goto(`${base}/dashboard/environments/${envId}/webhooks/endpoints/${endpointId}`);
    await expectHeading(page, 'Webhook endpoint');
    await page.getByRole('button', { name: 'Delete endpoint' }).click();
    await expectHeading(page, 'Webhook endpoints');
    await page.getByText('No endpoints yet').waitFor({ timeout: 10_000 });
    assert.equal((await api.get(`/v1/dashboard/environments/${envId}/webhook-endpoints/${endpointId}`)).status, 404);
    const audit = (await api.get(`/v1/dashboard/organizations/${owner.organizationId}/audit?limit=100`)).body.data as any[];
    const entries = audit.filter((entry) => entry.target.id === endpointId);
    const mine = entries.filter((entry) => entry.actor.kind === 'user');
    assert.deepEqual(
      mine.map((entry) => entry.action).sort(),
      ['created', 'deleted', 'recovery_started', 'secret_revealed', 'tested', 'updated', 'updated', 'updated'].map((a) => `webhook_endpoint.${a}`),
    );
    assert.ok(mine.every((entry) => entry.actor.email === 'ada@example.com'));
    // the secret read with the secret key above is audited under that key
    assert.deepEqual(
      entries.filter((entry) => entry.actor.kind !== 'user').map((entry) => [entry.actor.kind, entry.action]),
      [['key', 'webhook_endpoint.secret_revealed']],
    );
  });

  const unexpected = browser.errors.filter((line) => !EXPECTED_REFUSAL.test(line));
  assert.deepEqual(unexpected, [], `console errors:\n${browser.console.join('\n')}`);
});
