import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { launchBrowser } from './helpers/browser.ts';
import { startCluster } from './helpers/cluster.ts';
import { DashboardClient, createUser, mailedCodes } from './helpers/dashboard.ts';
import { eventually } from './helpers/eventually.ts';
import { request } from './helpers/http.ts';

const PASSWORD = 'correct horse battery';
const VIEWER_PASSWORD = 'another long password';

/**
 * Console lines a browser writes by itself for an HTTP error answer ("Failed to load resource:
 * the server responded with a status of 401"). The test causes some on purpose (a wrong
 * password, a refused origin, the request after signing out), so these, and only these, are
 * left out of the console-error check; every other error (a script error, a CSP violation, a
 * failed asset) fails the test.
 */
const EXPECTED_REFUSAL = /Failed to load resource: the server responded with a status of (400|401)\b/;

async function heading(page: Page): Promise<string> {
  return (await page.locator('main h1').first().textContent({ timeout: 10_000 })) ?? '';
}

async function expectHeading(page: Page, text: string): Promise<void> {
  await page.locator('main h1', { hasText: text }).first().waitFor({ timeout: 10_000 });
  assert.equal(await heading(page), text);
}

test('dashboard UI - sign in, a project, an environment, a key shown once, an origin, the audit log, an invitation, sign out', async (t) => {
  // at `info`, the gateway's log holds the mail with the code a new account needs
  const cluster = await startCluster(t, { gateways: 1, env: { LOG_LEVEL: 'info' } });
  const gateway = cluster.gateways[0]!;
  const base = gateway.controlUrl;
  const owner = await createUser(cluster.db.pool, { email: 'ada@example.com', password: PASSWORD, organization: 'acme', role: 'owner' });
  const browser = await launchBrowser(t);
  const page = await browser.newPage();

  await t.test('the page is served with a strict Content-Security-Policy, and every view path loads it', async () => {
    for (const path of ['/dashboard', '/dashboard/', '/dashboard/environments/env_x', '/dashboard/accept-invitation']) {
      const res = await fetch(`${base}${path}`);
      assert.equal(res.status, 200, path);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
      const csp = res.headers.get('content-security-policy') ?? '';
      assert.match(csp, /default-src 'none'/);
      assert.match(csp, /script-src 'self'(;|$)/);
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
      assert.equal(res.headers.get('x-frame-options'), 'DENY');
      assert.match(await res.text(), /<script type="module" src="\/dashboard\/assets\/app\.js">/);
    }
    const js = await fetch(`${base}/dashboard/assets/app.js`);
    assert.equal(js.status, 200);
    assert.match(js.headers.get('content-type') ?? '', /^text\/javascript/);
    const etag = js.headers.get('etag')!;
    assert.equal((await fetch(`${base}/dashboard/assets/app.js`, { headers: { 'if-none-match': etag } })).status, 304);
    const missing = await fetch(`${base}/dashboard/assets/nope.js`);
    assert.equal(missing.status, 404);
    assert.equal(((await missing.json()) as { code: string }).code, 'not_found');
  });

  await t.test('signing in: a wrong password shows the API reason next to the form; the right one opens the organization', async () => {
    await page.goto(`${base}/dashboard`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor({ timeout: 10_000 });
    assert.deepEqual(browser.errors, [], 'a first visit (no cookie) shows the form without a refused request');
    await page.getByLabel('E-mail').fill('ada@example.com');
    await page.getByLabel('Password').fill('not the password');
    await page.getByLabel('Password').press('Enter'); // from the keyboard
    const alert = page.getByRole('form', { name: 'Sign in' }).getByRole('alert');
    await alert.filter({ hasText: 'wrong e-mail or password' }).waitFor({ timeout: 10_000 });
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByLabel('Password').press('Enter');
    await expectHeading(page, 'acme');
    assert.equal(await page.getByTestId('signed-in-as').textContent(), 'ada@example.com');
  });

  let envId = '';
  let key = '';
  await t.test('a project and an environment are created from their forms', async () => {
    await page.getByLabel('Project name').fill('chat');
    await page.getByRole('button', { name: 'Create project' }).click();
    await expectHeading(page, 'chat');
    await page.getByLabel('Environment name').fill('prod');
    await page.getByRole('button', { name: 'Create environment' }).click();
    await expectHeading(page, 'prod');
    envId = /\/dashboard\/environments\/([^/]+)$/.exec(new URL(page.url()).pathname)![1]!;
    const api = new DashboardClient(base);
    assert.equal((await api.signIn('ada@example.com', PASSWORD)).status, 200);
    const env = await api.get(`/v1/dashboard/environments/${envId}`);
    assert.equal(env.status, 200);
    assert.equal(env.body.name, 'prod');
  });

  await t.test('a new key is shown once, works on the public API, and is gone after a reload', async () => {
    await page.getByLabel('Kind').selectOption('secret');
    await page.getByRole('button', { name: 'Create key' }).click();
    key = (await page.getByTestId('new-key').textContent({ timeout: 10_000 })) ?? '';
    assert.match(key, /^sk_/);
    const minted = await request(base, 'POST', '/v1/tokens', { token: key, body: { userId: 'alice' } });
    assert.equal(minted.status, 201, JSON.stringify(minted.body));
    // the list shows its prefix, never the key
    const keysCard = page.getByRole('region', { name: 'API keys' });
    const prefix = (await keysCard.locator('tbody code').first().textContent()) ?? '';
    assert.ok(prefix.length > 3 && key.startsWith(prefix.replace(/…$/, '')), `prefix ${prefix}`);
    await page.reload();
    await expectHeading(page, 'prod');
    await page.getByRole('region', { name: 'API keys' }).locator('tbody tr').first().waitFor();
    assert.equal(await page.getByTestId('new-key').count(), 0);
    assert.ok(!(await page.content()).includes(key), 'the key is not on the page after a reload');
  });

  await t.test('an allowed origin: a bad one shows the API reason, a good one is listed', async () => {
    const origins = page.getByRole('region', { name: 'Allowed origins' });
    await origins.getByLabel('Origin', { exact: true }).fill('ftp://files.example.com');
    await origins.getByRole('button', { name: 'Add origin' }).click();
    await origins.getByRole('form').getByRole('alert').filter({ hasText: 'invalid_request' }).waitFor({ timeout: 10_000 });
    await origins.getByLabel('Origin', { exact: true }).fill('https://App.Example.com:443');
    await origins.getByRole('button', { name: 'Add origin' }).click();
    await origins.locator('tbody code', { hasText: 'https://app.example.com' }).waitFor({ timeout: 10_000 });
    const api = new DashboardClient(base);
    await api.signIn('ada@example.com', PASSWORD);
    const listed = await api.get(`/v1/dashboard/environments/${envId}/origins`);
    assert.deepEqual(
      listed.body.data.map((o: { origin: string }) => o.origin),
      ['https://app.example.com'],
    );
  });

  await t.test('renaming, and deleting only with the name typed as confirmation', async () => {
    await page.getByRole('form', { name: 'Rename the environment' }).getByLabel('Environment name').fill('production');
    await page.getByRole('button', { name: 'Rename' }).click();
    await expectHeading(page, 'production');
    const deletion = page.getByRole('form', { name: 'Delete the environment' });
    await deletion.getByLabel('Name of the environment, to confirm').fill('prod');
    await deletion.getByRole('button', { name: 'Delete environment' }).click();
    await deletion.getByRole('alert').filter({ hasText: /\S/ }).waitFor({ timeout: 10_000 });
    assert.equal(await heading(page), 'production', 'a wrong confirmation deletes nothing');
  });

  await t.test('the audit log lists the changes, with who made them', async () => {
    await page.getByRole('link', { name: 'Organization' }).click();
    await expectHeading(page, 'acme');
    await page.getByRole('link', { name: 'Audit log' }).click();
    await expectHeading(page, 'Audit log');
    const actions = await page.locator('main tbody tr td:nth-child(3)').allTextContents();
    for (const action of ['project.created', 'environment.created', 'key.created', 'origin.added', 'environment.renamed']) {
      assert.ok(actions.includes(action), `${action} in ${actions.join(', ')}`);
    }
    assert.ok(!actions.includes('environment.deleted'));
    const who = await page.locator('main tbody tr td:nth-child(2)').first().textContent();
    assert.equal(who, 'ada@example.com');
  });

  await t.test('an invitation link, opened in another browser, makes a viewer who cannot change anything', async () => {
    await page.getByRole('link', { name: 'Organization' }).click();
    await expectHeading(page, 'acme');
    const invite = page.getByRole('form', { name: 'Invite someone' });
    await invite.getByLabel('Role').selectOption('viewer');
    await invite.getByRole('button', { name: 'Create invitation link' }).click();
    const link = (await page.getByTestId('invitation-link').textContent({ timeout: 10_000 })) ?? '';
    assert.match(link, /\/dashboard\/accept-invitation#.+/);
    await page.getByRole('region', { name: 'Invitations' }).locator('tbody td', { hasText: 'pending' }).waitFor({ timeout: 10_000 });
    const other = await browser.newPage();
    await other.goto(link);
    await expectHeading(other, 'Accept an invitation');
    await other.getByText('Join acme as viewer.').waitFor({ timeout: 10_000 });
    await other.getByLabel('E-mail').fill('bob@example.com');
    await other.getByRole('button', { name: 'Mail me a code' }).click();
    await other.getByRole('status').filter({ hasText: 'A code is on its way to bob@example.com' }).waitFor({ timeout: 10_000 });
    const code = await eventually('the code is in the mail', async () => mailedCodes(gateway.output, 'bob@example.com', 'verify').at(-1));
    await other.getByLabel('Code from the mail').fill(code);
    await other.getByLabel('Password').fill(VIEWER_PASSWORD);
    await other.getByRole('button', { name: 'Accept and sign in' }).click();
    await expectHeading(other, 'acme');
    assert.equal(await other.getByTestId('signed-in-as').textContent(), 'bob@example.com');
    assert.equal(new URL(other.url()).hash, '', 'the spent token left the address bar');
    assert.equal(await other.getByRole('button', { name: 'Create project' }).count(), 0, 'a viewer has no project form');
    await other.getByRole('link', { name: 'chat' }).click();
    await expectHeading(other, 'chat');
    assert.equal(await other.getByRole('button', { name: 'Create environment' }).count(), 0);
    await other.close();
    const members = await new DashboardClient(base).signIn('bob@example.com', VIEWER_PASSWORD);
    assert.equal(members.status, 200);
    assert.deepEqual(
      members.body.organizations.map((o: { id: string; role: string }) => [o.id, o.role]),
      [[owner.organizationId, 'viewer']],
    );

    // the owner changes roles from the member list; demoting the last owner shows the API's reason
    await page.reload();
    await expectHeading(page, 'acme');
    const bobRole = page.getByRole('form', { name: 'Role of bob@example.com' });
    await bobRole.getByRole('combobox').selectOption('admin');
    await bobRole.getByRole('button', { name: 'Set role' }).click();
    const api = new DashboardClient(base);
    await api.signIn('ada@example.com', PASSWORD);
    const listed = async () => (await api.get(`/v1/dashboard/organizations/${owner.organizationId}/members`)).body.data as { email: string; role: string }[];
    await eventually('bob is an admin', async () => (await listed()).find((m) => m.email === 'bob@example.com')?.role === 'admin', 10_000);
    const adaRole = page.getByRole('form', { name: 'Role of ada@example.com' });
    await adaRole.getByRole('combobox').selectOption('viewer');
    await adaRole.getByRole('button', { name: 'Set role' }).click();
    await adaRole.getByRole('alert').filter({ hasText: 'invalid_request' }).waitFor({ timeout: 10_000 });
    assert.equal((await listed()).find((m) => m.email === 'ada@example.com')?.role, 'owner');
  });

  await t.test('signing out: the sign-in form, and the API refuses the browser', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor({ timeout: 10_000 });
    const status = await page.evaluate(async () => (await fetch('/v1/dashboard/organizations')).status);
    assert.equal(status, 401);
    const before = browser.errors.length;
    await page.goto(`${base}/dashboard/environments/${envId}`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor({ timeout: 10_000 });
    assert.equal(await page.getByRole('region', { name: 'API keys' }).count(), 0);
    assert.deepEqual(browser.errors.slice(before), [], 'the cookie is gone: the page asks for no session');
  });

  const unexpected = browser.errors.filter((line) => !EXPECTED_REFUSAL.test(line));
  assert.deepEqual(unexpected, [], `console errors:\n${browser.console.join('\n')}`);
});
