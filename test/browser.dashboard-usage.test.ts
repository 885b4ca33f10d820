import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { expectNoSeriousAxeViolations } from './helpers/axe.ts';
import { launchBrowser } from './helpers/browser.ts';
import { startCluster } from './helpers/cluster.ts';
import { DashboardClient, createUser } from './helpers/dashboard.ts';
import { eventually } from './helpers/eventually.ts';
import { client, mintToken } from './helpers/http.ts';
import { startReceiver } from './helpers/webhook-receiver.ts';
import { openSocket } from './helpers/ws.ts';

const PASSWORD = 'correct horse battery';
const QUOTA = 10;

/**
 * How many rows of the canvas inside `chart` hold a pixel drawn in `rgb` (the colour of one
 * series): a line of zeros lies flat along 2 or 3 rows; a line that rises to a count spans many.
 */
async function rowsDrawnIn(page: Page, chartId: string, rgb: [number, number, number]): Promise<number> {
  return page.evaluate(
    ({ chartId, rgb }) => {
      const canvas = (globalThis as any).document.querySelector(`#${chartId}-chart canvas`);
      if (!canvas) return -1;
      const data: Uint8ClampedArray = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
      const rows = new Set<number>();
      for (let i = 0; i < data.length; i += 4) {
        if (Math.abs(data[i]! - rgb[0]) < 8 && Math.abs(data[i + 1]! - rgb[1]) < 8 && Math.abs(data[i + 2]! - rgb[2]) < 8 && data[i + 3]! > 200)
          rows.add(Math.floor(i / 4 / canvas.width));
      }
      return rows.size;
    },
    { chartId, rgb },
  );
}

const counterText = (page: Page, chartId: string, counter: string) =>
  page.locator(`#${chartId}-heading`).locator('xpath=..').locator(`dl dd[data-counter="${counter}"]`).textContent();

test('dashboard usage - charts drawn from real counters, the monthly quota and its warning', async (t) => {
  const cluster = await startCluster(t, { channelNodes: 1, dispatchers: 1, env: { USAGE_FLUSH_MS: '300', QUOTA_FLUSH_MS: '300' } });
  const base = cluster.gateways[0]!.controlUrl;
  const owner = await createUser(cluster.db.pool, { email: 'ada@example.com', password: PASSWORD, organization: 'acme', role: 'owner' });
  const dash = new DashboardClient(base);
  assert.equal((await dash.signIn('ada@example.com', PASSWORD)).status, 200);
  const projectId: string = (await dash.post(`/v1/dashboard/organizations/${owner.organizationId}/projects`, { name: 'chat' })).body.id;
  const envId: string = (await dash.post(`/v1/dashboard/projects/${projectId}/environments`, { name: 'prod' })).body.id;
  const secretKey: string = (await dash.post(`/v1/dashboard/environments/${envId}/keys`, { kind: 'secret' })).body.key;
  const control = client(base, secretKey);
  assert.equal((await control.patch('/v1/config', { limits: { monthlyMessages: QUOTA } })).status, 200);

  // every other delivery fails (500), the rest are delivered
  let received = 0;
  const receiver = await startReceiver(t, () => ({ status: ++received % 2 === 0 ? 500 : 200 }));
  const endpoint = await control.post('/v1/webhook-endpoints', { url: receiver.url, eventTypes: ['message.published'] });
  assert.equal(endpoint.status, 201, JSON.stringify(endpoint.body));

  const token = await mintToken(cluster.gateways[0]!.controlUrl, secretKey, 'bob');
  const subscriber = openSocket(cluster.gateways[0]!.realtimeUrl, `/v1/channels/room-1?token=${token}`);
  await subscriber.waitFor('ready', (f) => f.op === 'ready');
  const published = 8; // 80 % of the quota: the dashboard warns
  for (let i = 0; i < published; i++) {
    const res = await control.post('/v1/channels/room-1/messages', { senderId: 'alice', content: { text: `hello ${i}` } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
  }
  await subscriber.waitFor('the last message', (f) => f.content?.text === `hello ${published - 1}`);
  const totals = await eventually(
    'the counters reach the stats',
    async () => {
      const res = await control.get(`/v1/stats?unit=hour&limit=2`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const sum = (name: string) => (res.body.data as Record<string, number>[]).reduce((n, entry) => n + (entry[name] ?? 0), 0);
      const seen = {
        published: sum('messagesPublished'),
        delivered: sum('messagesDelivered'),
        attempts: sum('webhookDeliveries') + sum('webhookFailedAttempts'),
      };
      return seen.published === published && seen.delivered >= published && seen.attempts >= published
        ? { ...seen, failed: sum('webhookFailedAttempts') }
        : undefined;
    },
    30_000,
  );
  assert.ok(totals.failed >= 1, 'some attempts failed');

  const browser = await launchBrowser(t);
  const page = await browser.newPage();
  await page.setViewportSize({ width: 1100, height: 900 });
  await page.goto(`${base}/dashboard`);
  await page.getByLabel('E-mail').fill('ada@example.com');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByLabel('Password').press('Enter');
  await page.locator('main h1', { hasText: 'acme' }).first().waitFor({ timeout: 10_000 });

  await t.test('the environment tabs lead to the usage page, which draws every chart', async () => {
    await page.goto(`${base}/dashboard/environments/${envId}`);
    await page.getByRole('navigation', { name: 'Environment' }).getByRole('link', { name: 'Usage' }).click();
    await page.locator('main h1', { hasText: 'Usage' }).waitFor({ timeout: 10_000 });
    for (const chart of ['usage-messages', 'usage-connections', 'usage-webhooks']) await page.locator(`#${chart}-chart canvas`).waitFor({ timeout: 10_000 });
    assert.equal(await counterText(page, 'usage-messages', 'messagesPublished'), String(published));
    assert.ok(Number(await counterText(page, 'usage-messages', 'messagesDelivered')) >= published);
    assert.ok(Number(await counterText(page, 'usage-connections', 'connectionsPeak')) >= 1, 'the subscriber is a connection');
    assert.equal(await counterText(page, 'usage-webhooks', 'webhookFailedAttempts'), String(totals.failed));
    // the lines are drawn in the series' colours (the last drawn on top where they coincide):
    // delivered #1e7a3c over published, failed attempts #b3261e
    await eventually('the delivered line rises', async () => (await rowsDrawnIn(page, 'usage-messages', [0x1e, 0x7a, 0x3c])) > 20, 5_000);
    await eventually('the failed-attempts line rises', async () => (await rowsDrawnIn(page, 'usage-webhooks', [0xb3, 0x26, 0x1e])) > 20, 5_000);
    // the table of numbers says the same as the chart
    const cells = await page.locator('#usage-messages-chart td[data-counter="messagesPublished"]').allTextContents();
    assert.equal(
      cells.reduce((n, text) => n + Number(text), 0),
      published,
    );
  });

  await t.test('the quota panel shows the month against the limit, and warns at 80 %', async () => {
    const messages = page.getByTestId('quota-messages');
    assert.match((await messages.textContent()) ?? '', new RegExp(`${published} of ${QUOTA} \\(80 %\\)`));
    await messages.getByText('Over 80 %').waitFor({ timeout: 5_000 });
    assert.match((await page.getByTestId('quota-connection-minutes').textContent()) ?? '', /no limit/);
    await expectNoSeriousAxeViolations(page, 'the usage page with charts and a quota warning');
  });

  await t.test('another unit and range ask again and keep the same totals', async () => {
    await page.getByLabel('Unit').selectOption('hour');
    await page.waitForURL(/unit=hour/);
    assert.ok(await page.locator('#usage-range option[value="1h"]').isEnabled());
    await page.getByLabel('Range').selectOption('24h');
    await page.waitForURL(/range=24h/);
    await page.getByTestId('usage-updated').filter({ hasText: 'of 25 intervals' }).waitFor({ timeout: 10_000 });
    assert.equal(await counterText(page, 'usage-messages', 'messagesPublished'), String(published));
    // a day by minute would be 1441 intervals: not offered
    await page.getByLabel('Unit').selectOption('minute');
    assert.equal(await page.locator('#usage-range option[value="24h"]').isDisabled(), true);
    assert.equal(await page.getByLabel('Range').inputValue(), '6h', 'the longest range a minute can show');
  });

  await t.test('at the limit the panel says the quota is used up and when it resets', async () => {
    for (let i = published; i < QUOTA; i++)
      assert.equal((await control.post('/v1/channels/room-1/messages', { senderId: 'alice', content: { text: `more ${i}` } })).status, 201);
    const refused = await control.post('/v1/channels/room-1/messages', { senderId: 'alice', content: { text: 'one too many' } });
    assert.equal(refused.status, 429);
    assert.equal(refused.body.code, 'quota_exceeded');
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByTestId('quota-messages').getByRole('alert').filter({ hasText: 'used up' }).waitFor({ timeout: 10_000 });
    assert.match((await page.getByTestId('quota-messages').textContent()) ?? '', new RegExp(`${QUOTA} of ${QUOTA} \\(100 %\\)`));
    await expectNoSeriousAxeViolations(page, 'the usage page with a used-up quota');
  });

  subscriber.ws.close();
  assert.deepEqual(
    browser.errors.filter((line) => !/status of 429/.test(line)),
    [],
    `console errors:\n${browser.console.join('\n')}`,
  );
});
