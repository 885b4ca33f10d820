import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { expectNoSeriousAxeViolations } from './helpers/axe.ts';
import { launchBrowser } from './helpers/browser.ts';
import { startCluster } from './helpers/cluster.ts';
import { DashboardClient, createUser } from './helpers/dashboard.ts';
import { eventually } from './helpers/eventually.ts';
import { request } from './helpers/http.ts';
import { startReceiver } from './helpers/webhook-receiver.ts';

const PASSWORD = 'correct horse battery';
/** Refusals the test causes on purpose (a wrong password, a bad origin, unknown ids and tokens); any other console error fails it. */
const EXPECTED_REFUSAL = /Failed to load resource: the server responded with a status of (400|401|404)\b/;

async function expectHeading(page: Page, text: string): Promise<void> {
  await page.locator('main h1', { hasText: text }).first().waitFor({ timeout: 10_000 });
  assert.equal(await page.locator('main h1').first().textContent(), text);
}

/** The route patterns of the dashboard's router (apps/dashboard/src/main.ts, ROUTES). */
async function dashboardRoutes(): Promise<string[]> {
  const main = await readFile(new URL('../apps/dashboard/src/main.ts', import.meta.url), 'utf8');
  const start = main.indexOf('const ROUTES: Route[] = [');
  const routes = main.slice(start, main.indexOf('\n];', start));
  assert.ok(start >= 0 && routes.length > 0, 'main.ts declares ROUTES');
  return [...routes.matchAll(/path: '([^']+)'/g)].map((m) => m[1]!);
}

test('dashboard UI - axe-core finds no serious or critical violation on any page, signed out or in', async (t) => {
  const cluster = await startCluster(t, { channelNodes: 1, dispatchers: 1 });
  const base = cluster.gateways[0]!.controlUrl;
  const owner = await createUser(cluster.db.pool, { email: 'ada@example.com', password: PASSWORD, organization: 'acme', role: 'owner' });
  // a second organization, so that /dashboard lists them instead of opening the only one
  const beta = await createUser(cluster.db.pool, { email: 'grace@example.com', password: PASSWORD, organization: 'beta', role: 'owner' });
  const ada = (await cluster.db.pool.query<{ id: string }>('select id from users where email = $1', ['ada@example.com'])).rows[0]!.id;
  await cluster.db.pool.query("insert into organization_members (organization_id, user_id, role) values ($1, $2, 'viewer')", [beta.organizationId, ada]);

  // everything the pages can show: keys, an origin, members, bans, messages (one retracted), a failing webhook's delivery, invitations
  const api = new DashboardClient(base);
  assert.equal((await api.signIn('ada@example.com', PASSWORD)).status, 200);
  const org = `/v1/dashboard/organizations/${owner.organizationId}`;
  const projectId: string = (await api.post(`${org}/projects`, { name: 'chat' })).body.id;
  const envId: string = (await api.post(`/v1/dashboard/projects/${projectId}/environments`, { name: 'prod' })).body.id;
  const env = `/v1/dashboard/environments/${envId}`;
  const secretKey: string = (await api.post(`${env}/keys`, { kind: 'secret' })).body.key;
  assert.equal((await api.post(`${env}/keys`, { kind: 'publishable' })).status, 201);
  assert.equal((await api.post(`${env}/origins`, { origin: 'https://app.example.com' })).status, 201);
  assert.equal((await api.post(`${org}/invitations`, { role: 'admin', email: 'bob@example.com' })).status, 201);
  const invitationLink: string = (await api.post(`${org}/invitations`, { role: 'viewer' })).body.link;
  assert.equal((await api.put(`${env}/bans/mallory`, { reason: 'spam' })).status, 200);
  assert.equal(
    (await api.put(`${env}/channels/room-1/bans/trudy`, { reason: 'off topic', expiresAt: new Date(Date.now() + 86_400_000).toISOString() })).status,
    200,
  );
  assert.equal((await api.put(`${env}/channels/room-1/members/carol`, { role: 'moderator' })).status, 200);
  const receiver = await startReceiver(t, () => ({ status: 500 }));
  assert.equal((await api.put(`${env}/webhook`, { url: receiver.url })).status, 200);
  const endpoint = await api.post(`${env}/webhook-endpoints`, {
    url: receiver.url,
    description: 'billing',
    eventTypes: ['message.published'],
    channels: ['room-*'],
  });
  assert.equal(endpoint.status, 201, JSON.stringify(endpoint.body));
  const endpointId: string = endpoint.body.id;
  const published: { id: string; seq: number }[] = [];
  for (const text of ['hello', 'a longer message with a long word: https://example.com/' + 'a'.repeat(120), 'to be retracted']) {
    const res = await request(base, 'POST', '/v1/channels/room-1/messages', { token: secretKey, body: { senderId: 'alice', content: { text } } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    published.push(res.body);
  }
  assert.equal((await api.post(`${env}/channels/room-1/messages/${published[2]!.id}/retract`, { reason: 'spam' })).status, 200);
  const deliveryId = await eventually('a delivery has a failed attempt', async () => {
    const listed = (await api.get(`${env}/webhook/deliveries`)).body.data as { id: string; attempts: number }[];
    return listed.find((delivery) => delivery.attempts > 0)?.id;
  });

  const browser = await launchBrowser(t);
  const page = await browser.newPage();
  const visited = new Set<string>();
  /** Opens `path` (a full page load), waits for its heading (and live status), then runs axe. */
  const check = async (route: string, path: string, heading: string, options: { live?: boolean } = {}) => {
    await page.goto(`${base}/dashboard${path}`);
    await expectHeading(page, heading);
    if (options.live)
      await page
        .getByTestId('live-status')
        .filter({ hasText: /^Live$/ })
        .first()
        .waitFor({ timeout: 10_000 });
    await expectNoSeriousAxeViolations(page, `the dashboard's ${route} page`);
    visited.add(route);
  };

  await t.test('signed out: the sign-in form, its error, and the invitation pages', async () => {
    await page.goto(`${base}/dashboard`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor({ timeout: 10_000 });
    await expectNoSeriousAxeViolations(page, 'the sign-in form');
    await page.getByLabel('E-mail').fill('ada@example.com');
    await page.getByLabel('Password').fill('not the password');
    await page.getByLabel('Password').press('Enter');
    await page.getByRole('form', { name: 'Sign in' }).getByRole('alert').filter({ hasText: 'wrong e-mail or password' }).waitFor({ timeout: 10_000 });
    await expectNoSeriousAxeViolations(page, 'the sign-in form with an error');

    await page.goto(`${base}/dashboard/accept-invitation#${new URL(invitationLink).hash.slice(1)}`);
    await page.getByText('Join acme as viewer.').waitFor({ timeout: 10_000 });
    await expectNoSeriousAxeViolations(page, 'the invitation form');
    for (const [hash, what] of [
      ['', 'no token'],
      ['#not-a-token', 'an unknown token'],
    ]) {
      await page.goto(`${base}/dashboard/accept-invitation${hash}`);
      await page.locator('main [role="alert"]').filter({ hasText: /\S/ }).waitFor({ timeout: 10_000 });
      await expectNoSeriousAxeViolations(page, `the invitation page with ${what}`);
    }
  });

  await t.test('signed in: every page of the router, with what each can show', async () => {
    await page.goto(`${base}/dashboard`);
    await page.getByLabel('E-mail').fill('ada@example.com');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByLabel('Password').press('Enter');
    await expectHeading(page, 'Organizations');
    await expectNoSeriousAxeViolations(page, 'the list of organizations');
    visited.add('/');

    await check('/orgs/:orgId', `/orgs/${owner.organizationId}`, 'acme');
    await page.getByRole('button', { name: 'Create invitation link' }).click();
    await page.getByTestId('invitation-link').waitFor({ timeout: 10_000 });
    await expectNoSeriousAxeViolations(page, 'the organization page with a new invitation link');
    await check('/orgs/:orgId/audit', `/orgs/${owner.organizationId}/audit`, 'Audit log');
    await check('/projects/:projectId', `/projects/${projectId}`, 'chat');

    await check('/environments/:envId', `/environments/${envId}`, 'prod');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByTestId('new-key').waitFor({ timeout: 10_000 });
    const origins = page.getByRole('region', { name: 'Allowed origins' });
    await origins.getByLabel('Origin', { exact: true }).fill('ftp://files.example.com');
    await origins.getByRole('button', { name: 'Add origin' }).click();
    await origins.getByRole('form').getByRole('alert').filter({ hasText: 'invalid_request' }).waitFor({ timeout: 10_000 });
    await expectNoSeriousAxeViolations(page, 'the environment page with a new key and a refused origin');

    await check('/environments/:envId/channels', `/environments/${envId}/channels`, 'Messages', { live: true });
    await check('/environments/:envId/channels/:channelId', `/environments/${envId}/channels/room-1`, 'room-1', { live: true });
    await page.locator('.tombstone', { hasText: 'retracted' }).first().waitFor({ timeout: 10_000 });
    await expectNoSeriousAxeViolations(page, 'the channel page with a retracted message');
    await check(
      '/environments/:envId/channels/:channelId/messages/:messageId',
      `/environments/${envId}/channels/room-1/messages/${published[1]!.id}`,
      `Message ${published[1]!.seq}`,
    );
    await page.goto(`${base}/dashboard/environments/${envId}/channels/room-1/messages/${published[2]!.id}`);
    await page.getByTestId('tombstone').waitFor({ timeout: 10_000 });
    await expectNoSeriousAxeViolations(page, 'a retracted message');
    await check('/environments/:envId/bans', `/environments/${envId}/bans`, 'Bans');

    await check('/environments/:envId/webhooks', `/environments/${envId}/webhooks`, 'Webhooks', { live: true });
    await page.getByRole('button', { name: 'Reveal secret' }).click();
    await page.getByTestId('webhook-secret').waitFor({ timeout: 10_000 });
    await page.getByRole('region', { name: 'Deliveries' }).locator('tbody .badge').first().waitFor({ timeout: 10_000 });
    await expectNoSeriousAxeViolations(page, 'the webhooks page with the secret shown and a delivery listed');
    await check('/environments/:envId/webhooks/deliveries/:deliveryId', `/environments/${envId}/webhooks/deliveries/${deliveryId}`, 'Delivery');
    await check('/environments/:envId/webhooks/endpoints', `/environments/${envId}/webhooks/endpoints`, 'Webhook endpoints');
    await page.getByRole('region', { name: 'Endpoints' }).locator('tbody tr').first().waitFor({ timeout: 10_000 });
    await expectNoSeriousAxeViolations(page, 'the endpoints page with an endpoint listed');
    await check('/environments/:envId/webhooks/endpoints/:endpointId', `/environments/${envId}/webhooks/endpoints/${endpointId}`, 'Webhook endpoint', {
      live: true,
    });
    await page.getByRole('button', { name: 'Reveal secret' }).click();
    await page.getByTestId('endpoint-secret').waitFor({ timeout: 10_000 });
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByTestId('test-sent').waitFor({ timeout: 10_000 });
    await page.getByRole('button', { name: 'Recover' }).click();
    await page.getByTestId('task-status').filter({ hasText: 'Recovery' }).waitFor({ timeout: 10_000 });
    await page.getByRole('region', { name: 'Deliveries' }).locator('tbody .badge').first().waitFor({ timeout: 10_000 });
    await expectNoSeriousAxeViolations(page, 'the endpoint page with its secret, a test event, a recovery and its ledger');

    await check('/environments/:envId/logs', `/environments/${envId}/logs`, 'Live log', { live: true });
    await request(base, 'POST', '/v1/channels/room-2/messages', { token: secretKey, body: { senderId: 'alice', content: { text: 'for the log' } } });
    await page.getByRole('table', { name: 'Log events' }).locator('tr[data-event="message.published"]').first().waitFor({ timeout: 10_000 });
    await expectNoSeriousAxeViolations(page, 'the live log with an event');

    await check('/environments/:envId/usage', `/environments/${envId}/usage`, 'Usage');
    for (const chart of ['usage-messages', 'usage-connections', 'usage-webhooks']) await page.locator(`#${chart}-chart canvas`).waitFor({ timeout: 10_000 });
    await page.getByTestId('quota-messages').waitFor({ timeout: 10_000 });
    await page.locator('#usage-messages-chart details summary').click();
    await expectNoSeriousAxeViolations(page, 'the usage page with its charts and the numbers shown');

    // no view for the address, and a view whose data cannot be read
    await page.goto(`${base}/dashboard/no-such-page`);
    await expectHeading(page, 'Not found');
    await expectNoSeriousAxeViolations(page, 'the dashboard\'s "Not found" page');
    await page.goto(`${base}/dashboard/environments/env_00000000000000000000000000`);
    await expectHeading(page, 'Something went wrong');
    await expectNoSeriousAxeViolations(page, "the dashboard's error page");

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You are signed out.').waitFor({ timeout: 10_000 });
    await expectNoSeriousAxeViolations(page, 'the sign-in form after signing out');
  });

  await t.test('every route of the router was checked', async () => {
    assert.deepEqual([...visited].sort(), (await dashboardRoutes()).sort());
  });

  const unexpected = browser.errors.filter((line) => !EXPECTED_REFUSAL.test(line));
  assert.deepEqual(unexpected, [], `console errors:\n${browser.console.join('\n')}`);
});
