/**
 * Takes the screenshots of docs/dashboard.md (docs/dashboard/*.png): starts a cluster of its
 * own (a fresh database, as the tests do), signs in as a new owner in headless Chromium, makes a
 * project, environments, a key and an origin through the UI, and photographs the main pages.
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

const OUT = fileURLToPath(new URL('../docs/dashboard/', import.meta.url));
const PASSWORD = 'correct horse battery';

test('dashboard screenshots', { timeout: 120_000 }, async (t) => {
  const cluster = await startCluster(t, { gateways: 1 });
  const base = cluster.gateways[0]!.controlUrl;
  await createUser(cluster.db.pool, { email: 'ada@example.com', password: PASSWORD, organization: 'Acme', role: 'owner' });
  await createUser(cluster.db.pool, { email: 'grace@example.com', password: PASSWORD, organization: 'Acme', role: 'admin' });
  const browser = await launchBrowser(t);
  const page = await browser.newPage();
  await page.setViewportSize({ width: 1100, height: 760 });
  const shot = async (name: string) => {
    await page.waitForLoadState('networkidle');
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
  await page.getByTestId('new-key').waitFor();
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
  browser.assertNoErrors();
});
