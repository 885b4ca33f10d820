/**
 * The chat example's edits and reactions in headless Chromium against a real cluster: a user edits
 * her message inline and both pages show the new text marked "edited"; the other user reacts and
 * both pages show the count, and taking the reaction back updates both; a page opened afterwards
 * shows the same from history; a page whose network was cut catches up on what changed when it
 * resumes; and the page stays free of serious accessibility problems with the edit field open.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { expectNoSeriousAxeViolations } from './helpers/axe.ts';
import { launchBrowser } from './helpers/browser.ts';
import { startChatExample } from './helpers/chat-example.ts';
import { startCluster } from './helpers/cluster.ts';
import { eventually } from './helpers/eventually.ts';
import { client } from './helpers/http.ts';
import { startTcpProxy } from './helpers/tcp-proxy.ts';

async function signIn(page: Page, url: string, userId: string): Promise<void> {
  await page.goto(url);
  await page.locator('body[data-ready="true"]').waitFor();
  await page.fill('#login-user', userId);
  await page.click('#login button[type="submit"]');
  await page.locator('#state[data-state="connected"]').waitFor();
  await page.locator('#room-title', { hasText: '#general' }).waitFor();
}

/** What a page shows of one message: its text, whether it is marked edited, and each reaction's count and pressed state. */
async function shown(page: Page, id: string) {
  const item = page.locator(`#messages li[data-id="${id}"]`);
  return {
    text: await item.locator('.text').textContent(),
    edited: await item.locator('.edited').isVisible(),
    reactions: Object.fromEntries(
      // (the page's DOM types are not this project's: its elements are read as `any`)
      await item
        .locator('button.react')
        .evaluateAll((buttons: any[]) =>
          buttons
            .map(
              (b) =>
                [
                  b.getAttribute('data-type') as string,
                  `${b.querySelector('.count').textContent}${b.getAttribute('aria-pressed') === 'true' ? ' pressed' : ''}`,
                ] as const,
            )
            .filter(([, state]) => state !== ''),
        ),
    ),
  };
}

/** Waits until `page` shows message `id` as `expected`, and says what it showed instead. */
async function expectShown(page: Page, who: string, id: string, expected: Awaited<ReturnType<typeof shown>>): Promise<void> {
  let last: unknown;
  await eventually(`${who} shows ${JSON.stringify(expected)} (last seen ${JSON.stringify(last)})`, async () => {
    last = await shown(page, id);
    return JSON.stringify(last) === JSON.stringify(expected);
  }).catch(() => assert.deepEqual(last, expected, `${who} shows the message as expected`));
}

test('browser chat - edits and reactions: one user edits inline, the other reacts and takes it back, both pages follow', async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1 });
  const gw = cluster.gateways[0]!;
  const env = await cluster.createEnvironment();
  const control = client(gw.controlUrl, env.secretKey);
  const { url } = await startChatExample(t, { RTM_SECRET_KEY: env.secretKey, RTM_CONTROL_URL: gw.controlUrl, RTM_REALTIME_URL: gw.realtimeUrl });
  // bob reaches the realtime edge through a proxy the test can cut (his own copy of the example names it)
  const proxy = await startTcpProxy([gw.realtimeUrl]);
  t.after(() => proxy.close());
  const viaProxy = await startChatExample(t, { RTM_SECRET_KEY: env.secretKey, RTM_CONTROL_URL: gw.controlUrl, RTM_REALTIME_URL: proxy.url });

  const browser = await launchBrowser(t);
  const alice = await browser.newPage();
  const bob = await browser.newPage();
  await signIn(alice, url, 'alice');
  await signIn(bob, viaProxy.url, 'bob');

  await alice.fill('#composer-text', 'helo wrold');
  await alice.press('#composer-text', 'Enter');
  const own = alice.locator('#messages li.mine');
  await own.waitFor();
  const id = (await own.getAttribute('data-id'))!;
  assert.match(id, /^msg_/);
  await expectShown(bob, 'bob', id, { text: 'helo wrold', edited: false, reactions: {} });
  assert.equal(await bob.locator(`#messages li[data-id="${id}"] button.edit`).count(), 0, "bob cannot edit alice's message");

  // alice edits inline: the field takes the text, Enter saves
  await own.locator('button.edit').click();
  const field = own.locator('form.edit input');
  assert.equal(await field.inputValue(), 'helo wrold');
  await expectNoSeriousAxeViolations(alice, 'the chat room with a message being edited');
  await field.fill('hello world');
  await field.press('Enter');
  await own.locator('form.edit').waitFor({ state: 'detached' });
  for (const [who, page] of [
    ['alice', alice],
    ['bob', bob],
  ] as const) {
    await expectShown(page, who, id, { text: 'hello world', edited: true, reactions: {} });
  }
  assert.equal(await bob.locator(`#messages li[data-id="${id}"]`).getAttribute('data-version'), '2');

  // bob reacts: both pages count it, only bob's button is pressed
  await bob.click(`#messages li[data-id="${id}"] button.react[data-type="👍"]`);
  await expectShown(bob, 'bob', id, { text: 'hello world', edited: true, reactions: { '👍': '1 pressed' } });
  await expectShown(alice, 'alice', id, { text: 'hello world', edited: true, reactions: { '👍': '1' } });
  // alice reacts too, and with another one
  await alice.click(`#messages li[data-id="${id}"] button.react[data-type="👍"]`);
  await alice.click(`#messages li[data-id="${id}"] button.react[data-type="🎉"]`);
  await expectShown(alice, 'alice', id, { text: 'hello world', edited: true, reactions: { '👍': '2 pressed', '🎉': '1 pressed' } });
  await expectShown(bob, 'bob', id, { text: 'hello world', edited: true, reactions: { '👍': '2 pressed', '🎉': '1' } });

  // bob takes his back: both pages follow
  await bob.click(`#messages li[data-id="${id}"] button.react[data-type="👍"]`);
  await expectShown(bob, 'bob', id, { text: 'hello world', edited: true, reactions: { '👍': '1', '🎉': '1' } });
  await expectShown(alice, 'alice', id, { text: 'hello world', edited: true, reactions: { '👍': '1 pressed', '🎉': '1 pressed' } });

  // the service agrees, and a page opened now shows the same from history
  const history = await control.get('/v1/channels/general/history');
  const [stored] = history.body.messages;
  assert.deepEqual([stored.content, stored.version, stored.updatedBy], [{ text: 'hello world' }, 2, 'alice']);
  assert.deepEqual(Object.keys(stored.reactions).sort(), ['🎉', '👍']);
  const carol = await browser.newPage();
  await signIn(carol, url, 'carol');
  await expectShown(carol, 'carol', id, { text: 'hello world', edited: true, reactions: { '👍': '1', '🎉': '1' } });

  // a page that was offline catches up when it resumes: bob's network goes, alice edits again and
  // takes her 🎉 back; bob's page shows both once it is connected again (the edit as an update of
  // the message as it is now, replayed from his last position)
  proxy.refuse(true);
  proxy.cut();
  await bob.locator('#state:not([data-state="connected"])').waitFor();
  await own.locator('button.edit').click();
  await own.locator('form.edit input').fill('hello, world');
  await own.locator('form.edit input').press('Enter');
  await alice.click(`#messages li[data-id="${id}"] button.react[data-type="🎉"]`);
  await expectShown(alice, 'alice', id, { text: 'hello, world', edited: true, reactions: { '👍': '1 pressed' } });
  await expectShown(bob, 'bob (offline)', id, { text: 'hello world', edited: true, reactions: { '👍': '1', '🎉': '1' } });
  proxy.refuse(false);
  await bob.locator('#state[data-state="connected"]').waitFor({ timeout: 60_000 });
  await expectShown(bob, 'bob', id, { text: 'hello, world', edited: true, reactions: { '👍': '1' } });
  assert.equal(await bob.locator(`#messages li[data-id="${id}"]`).getAttribute('data-version'), '3');

  // Chromium logs each refused reconnect of bob's while the proxy refused (page 2), as in
  // browser.react.test.ts; nothing else
  const failures = 'net::(ERR_CONNECTION_RESET|ERR_SOCKET_NOT_CONNECTED|ERR_CONNECTION_CLOSED|ERR_EMPTY_RESPONSE|ERR_CONNECTION_REFUSED)';
  const refused = [
    new RegExp(`^\\[page 2\\] error: WebSocket connection to 'ws://127\\.0\\.0\\.1:\\d+/v1/connect\\?token=[^']+' failed: .*${failures}$`),
    new RegExp(`^\\[page 2\\] error: Failed to load resource: ${failures}$`),
  ];
  assert.deepEqual(
    browser.errors.filter((line) => !refused.some((pattern) => pattern.test(line))),
    [],
  );
});
