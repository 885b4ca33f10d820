import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { expectNoSeriousAxeViolations } from './helpers/axe.ts';
import { launchBrowser } from './helpers/browser.ts';
import { startCluster } from './helpers/cluster.ts';
import { DashboardClient, createUser, mailedCodes } from './helpers/dashboard.ts';
import { eventually } from './helpers/eventually.ts';

const PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'a brand new password';
/** Refusals the test causes on purpose (an acceptance without a code, a wrong code, requests after the reset). */
const EXPECTED_REFUSAL = /Failed to load resource: the server responded with a status of 401\b/;

async function expectHeading(page: Page, text: string): Promise<void> {
  await page.locator('main h1', { hasText: text }).first().waitFor({ timeout: 10_000 });
  assert.equal(await page.locator('main h1').first().textContent(), text);
}

test('dashboard UI - a new account through an invitation and a mailed code; a forgotten password reset by mail', async (t) => {
  // at `info`, the gateway's log holds every mail (DASHBOARD_MAIL_SENDER=log)
  const cluster = await startCluster(t, { gateways: 1, env: { LOG_LEVEL: 'info' } });
  const gateway = cluster.gateways[0]!;
  const base = gateway.controlUrl;
  const owner = await createUser(cluster.db.pool, { email: 'ada@example.com', password: PASSWORD, organization: 'acme', role: 'owner' });
  const api = new DashboardClient(base);
  assert.equal((await api.signIn('ada@example.com', PASSWORD)).status, 200);
  const link: string = (await api.post(`/v1/dashboard/organizations/${owner.organizationId}/invitations`, { role: 'viewer' })).body.link;
  const codeOf = (email: string, purpose: 'verify' | 'reset', after: number) =>
    eventually(`a ${purpose} code mailed to ${email}`, async () => mailedCodes(gateway.output, email, purpose)[after]);

  const browser = await launchBrowser(t);

  await t.test('the invitation page: no account without the code from the mail, then one with it', async () => {
    const page = await browser.newPage();
    await page.goto(link);
    await page.getByText('Join acme as viewer.').waitFor({ timeout: 10_000 });
    const form = page.getByRole('form', { name: 'Accept the invitation' });
    await form.getByLabel('E-mail').fill('newcomer@example.com');
    await form.getByLabel('Password').fill(PASSWORD);
    await form.getByRole('button', { name: 'Accept and sign in' }).click();
    await form.getByRole('alert').filter({ hasText: 'a new account needs the code mailed to the address' }).waitFor({ timeout: 10_000 });
    await expectNoSeriousAxeViolations(page, 'the invitation page refusing an unproven address');

    await form.getByRole('button', { name: 'Mail me a code' }).click();
    await form.getByRole('status').filter({ hasText: 'A code is on its way to newcomer@example.com' }).waitFor({ timeout: 10_000 });
    await expectNoSeriousAxeViolations(page, 'the invitation page after asking for a code');
    const code = await codeOf('newcomer@example.com', 'verify', 0);
    await form.getByLabel('Code from the mail').fill(code);
    await form.getByRole('button', { name: 'Accept and sign in' }).click();
    await expectHeading(page, 'acme');
    assert.equal(await page.getByTestId('signed-in-as').textContent(), 'newcomer@example.com');
    await page.close();
  });

  await t.test('forgot password: a code by mail sets a new one, and the other browser is signed out', async () => {
    const elsewhere = await browser.newPage();
    await elsewhere.goto(`${base}/dashboard`);
    await elsewhere.getByLabel('E-mail').fill('ada@example.com');
    await elsewhere.getByLabel('Password').fill(PASSWORD);
    await elsewhere.getByLabel('Password').press('Enter');
    await expectHeading(elsewhere, 'acme');

    const page = await browser.newPage();
    await page.goto(`${base}/dashboard`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await expectHeading(page, 'Reset your password');
    await expectNoSeriousAxeViolations(page, 'the password reset page');
    const form = page.getByRole('form', { name: 'Reset the password' });
    await form.getByLabel('E-mail').fill('ada@example.com');
    await form.getByRole('button', { name: 'Mail me a code' }).click();
    await form.getByRole('status').filter({ hasText: 'A code is on its way to ada@example.com' }).waitFor({ timeout: 10_000 });
    const code = await codeOf('ada@example.com', 'reset', 0);
    await form.getByLabel('Code from the mail').fill(code === '00000000' ? '11111111' : '00000000');
    await form.getByLabel('New password').fill(NEW_PASSWORD);
    await form.getByRole('button', { name: 'Set the password' }).click();
    await form.getByRole('alert').filter({ hasText: 'wrong, used or expired code' }).waitFor({ timeout: 10_000 });
    await expectNoSeriousAxeViolations(page, 'the password reset page with a wrong code');
    await form.getByLabel('Code from the mail').fill(code);
    await form.getByRole('button', { name: 'Set the password' }).click();
    await page.getByRole('status').filter({ hasText: 'Your new password is set' }).waitFor({ timeout: 10_000 });
    await page.getByLabel('E-mail').fill('ada@example.com');
    await page.getByLabel('Password').fill(NEW_PASSWORD);
    await page.getByLabel('Password').press('Enter');
    await expectHeading(page, 'acme');

    // the session the other browser held ended with the reset
    await elsewhere.getByRole('link', { name: 'acme' }).first().click();
    await elsewhere.getByRole('heading', { name: 'Sign in' }).waitFor({ timeout: 10_000 });
    assert.equal((await new DashboardClient(base).signIn('ada@example.com', PASSWORD)).status, 401, 'the old password is gone');
  });

  const unexpected = browser.errors.filter((line) => !EXPECTED_REFUSAL.test(line));
  assert.deepEqual(unexpected, []);
});
