/**
 * Takes the screenshots of docs/dashboard.md (docs/dashboard/*.png): starts a cluster of its
 * own (a fresh database, as the tests do), signs in as a new owner in headless Chromium, makes a
 * project, environments, a key and an origin through the UI, publishes a few messages through
 * the public API, moderates and retracts through the UI, sets a monthly quota, and photographs
 * the main pages (the usage page from what the cluster counted).
 *
 *   node --import tsx scripts/dashboard-screenshots.ts
 *
 * Run through node:test so that the cluster and the browser are stopped however it ends.
 */
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { launchBrowser } from '../test/helpers/browser.ts';
import { startCluster } from '../test/helpers/cluster.ts';
import { createUser } from '../test/helpers/dashboard.ts';
import { request } from '../test/helpers/http.ts';

const OUT = fileURLToPath(new URL('../docs/dashboard/', import.meta.url));
const PASSWORD = 'correct horse battery';

test('dashboard screenshots', { timeout: 120_000 }, async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1, env: { USAGE_FLUSH_MS: '300' } });
  const base = cluster.gateways[0]!.controlUrl;
  await createUser(cluster.db.pool, { email: 'ada@example.com', password: PASSWORD, organization: 'Acme', role: 'owner' });
  await createUser(cluster.db.pool, { email: 'grace@example.com', password: PASSWORD, organization: 'Acme', role: 'admin' });
  const browser = await launchBrowser(t);
  const page = await browser.newPage();
  await page.setViewportSize({ width: 1100, height: 760 });
  const shot = async (name: string) => {
    // the live views hold a socket open, so the network is never idle: wait for the page itself
    await page.waitForLoadState('load');
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${OUT}${name}.png`, fullPage: true });
    console.log(`docs/dashboard/${name}.png`);
  };
  const heading = (page: Page, text: string) => page.locator('main h1', { hasText: text }).first().waitFor();

  await page.goto(`${base}/dashboard`);
  await page.getByLabel('E-mail').fill('ada@example.com');
  await shot('sign-in');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByLabel('Password').press('Enter');
  await heading(page, 'Acme');

  await page.getByLabel('Project name').fill('chat');
  await page.getByRole('button', { name: 'Create project' }).click();
  await heading(page, 'chat');
  for (const name of ['staging', 'production']) {
    await page.getByLabel('Environment name').fill(name);
    await page.getByRole('button', { name: 'Create environment' }).click();
    await heading(page, name);
    if (name === 'staging') {
      await page.goBack();
      await heading(page, 'chat');
    }
  }
  await page.getByRole('button', { name: 'Create key' }).click();
  await page.getByLabel('Kind').selectOption('publishable');
  await page.getByRole('button', { name: 'Create key' }).click();
  await page.getByTestId('new-key').waitFor();
  const origins = page.getByRole('region', { name: 'Allowed origins' });
  await origins.getByLabel('Origin', { exact: true }).fill('https://chat.example.com');
  await origins.getByRole('button', { name: 'Add origin' }).click();
  await origins.locator('tbody code').first().waitFor();
  await page.getByRole('button', { name: 'Create key' }).click();
  const secretKey = (await page.getByTestId('new-key').textContent()) ?? '';
  const environmentPath = new URL(page.url()).pathname;
  await shot('environment');

  await page.getByRole('link', { name: 'Project' }).click();
  await heading(page, 'chat');
  await shot('project');

  await page.getByRole('link', { name: 'Organization' }).click();
  await heading(page, 'Acme');
  await page.getByRole('form', { name: 'Invite someone' }).getByLabel('Role').selectOption('admin');
  await page.getByRole('button', { name: 'Create invitation link' }).click();
  await page.getByTestId('invitation-link').waitFor();
  await shot('organization');

  await page.getByRole('link', { name: 'Audit log' }).click();
  await heading(page, 'Audit log');
  await shot('audit-log');

  const publish = async (channelId: string, senderId: string, text: string) => {
    const res = await request(base, 'POST', `/v1/channels/${channelId}/messages`, { token: secretKey, body: { type: 'chat', senderId, content: { text } } });
    if (res.status !== 201) throw new Error(`publish: ${res.status} ${JSON.stringify(res.body)}`);
  };
  await publish('general', 'alice', 'Morning all!');
  await publish('general', 'bob', 'Hi Alice, the release is out');
  await publish('general', 'mallory', 'buy cheap watches at …');
  await publish('support', 'carol', 'Can someone reset my password?');
  const env = page.getByRole('navigation', { name: 'Environment' });
  await page.goto(`${base}${environmentPath}`);
  await env.getByRole('link', { name: 'Messages' }).click();
  await heading(page, 'Messages');
  await page.getByRole('link', { name: 'general' }).click();
  await heading(page, 'general');
  await page
    .getByTestId('live-status')
    .filter({ hasText: /^Live$/ })
    .waitFor();
  const members = page.getByRole('form', { name: 'Add a member' });
  await members.getByLabel('User id').fill('alice');
  await members.getByLabel('Role').selectOption('moderator');
  await members.getByRole('button', { name: 'Add member' }).click();
  await page.getByRole('region', { name: 'Members' }).locator('tbody code', { hasText: 'alice' }).waitFor();
  const ban = page.getByRole('form', { name: 'Ban a user from the channel' });
  await ban.getByLabel('User id').fill('mallory');
  await ban.getByLabel('Reason (shown to the user)').fill('spam');
  await ban.getByRole('button', { name: 'Ban' }).click();
  await page.getByRole('region', { name: 'Bans' }).locator('tbody code', { hasText: 'mallory' }).waitFor();
  await shot('channel');

  await page.getByRole('link', { name: 'Open message 3' }).click();
  await heading(page, 'Message 3');
  await page.getByLabel('Reason').fill('spam');
  await page.getByRole('button', { name: 'Retract message' }).click();
  await page.getByTestId('tombstone').waitFor();
  await shot('message');

  await env.getByRole('link', { name: 'Webhooks' }).click();
  await heading(page, 'Webhooks');
  await page.getByLabel('Webhook URL', { exact: true }).fill('https://10.0.0.5/hooks');
  await page.getByRole('button', { name: 'Deploy' }).click();
  await page.getByRole('form', { name: 'Deploy a webhook URL' }).getByRole('alert').filter({ hasText: 'invalid_request' }).waitFor();
  await shot('webhooks');

  await env.getByRole('link', { name: 'Live log' }).click();
  await heading(page, 'Live log');
  await page
    .getByTestId('live-status')
    .filter({ hasText: /^Live$/ })
    .waitFor();
  await publish('general', 'bob', 'See you at the stand-up');
  await publish('support', 'dave', 'Fixed, thanks!');
  await page.locator('tr[data-event="message.published"]').nth(1).waitFor();
  await shot('live-log');

  // the usage page: what the cluster counted for this environment (flushed every 300 ms here), and a quota
  const quota = await request(base, 'PATCH', '/v1/config', { token: secretKey, body: { limits: { monthlyMessages: 10_000 } } });
  if (quota.status !== 200) throw new Error(`quota: ${quota.status} ${JSON.stringify(quota.body)}`);
  for (let i = 0; i < 24; i++) await publish(i % 3 === 0 ? 'support' : 'general', ['alice', 'bob', 'carol'][i % 3]!, `message ${i}`);
  await page.waitForTimeout(1_500);
  await env.getByRole('link', { name: 'Usage' }).click();
  await heading(page, 'Usage');
  await page.locator('#usage-messages-chart canvas').waitFor();
  await shot('usage');
  // the refused URL's 400 is the browser's own console line; nothing else may be there
  const unexpected = browser.errors.filter((line) => !/status of 400\b/.test(line));
  if (unexpected.length > 0) throw new Error(`console errors:\n${unexpected.join('\n')}`);
});
