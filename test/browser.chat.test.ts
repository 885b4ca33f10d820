import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { expectNoSeriousAxeViolations } from './helpers/axe.ts';
import { launchBrowser } from './helpers/browser.ts';
import { startChatExample } from './helpers/chat-example.ts';
import { startCluster } from './helpers/cluster.ts';
import { eventually } from './helpers/eventually.ts';
import { client, request } from './helpers/http.ts';

async function signIn(page: Page, url: string, userId: string): Promise<void> {
  await page.goto(url);
  await page.locator('body[data-ready="true"]').waitFor();
  await page.fill('#login-user', userId);
  await page.click('#login button[type="submit"]');
  await page.locator('#state[data-state="connected"]').waitFor();
  await page.locator('#me', { hasText: userId }).waitFor();
  await page.locator('#login').waitFor({ state: 'hidden' });
}

const texts = (page: Page, selector: string) => page.locator(selector).allTextContents();

async function send(page: Page, text: string): Promise<void> {
  await page.fill('#composer-text', text);
  await page.press('#composer-text', 'Enter');
}

test('browser chat - the example: two users chat, see each other online, retract, get a mention in the inbox, page back through history', async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1 });
  const gw = cluster.gateways[0]!;
  const env = await cluster.createEnvironment();
  const control = client(gw.controlUrl, env.secretKey);
  // an older room, with more history than one page
  for (let n = 1; n <= 45; n++) {
    assert.equal((await control.post('/v1/channels/archive/messages', { content: { text: `old ${n}` } })).status, 201);
  }
  const { url } = await startChatExample(t, { RTM_SECRET_KEY: env.secretKey, RTM_CONTROL_URL: gw.controlUrl, RTM_REALTIME_URL: gw.realtimeUrl });

  // the token endpoint refuses what the control plane would refuse, in the error envelope
  const badName = await request(url, 'POST', '/token', { body: { userId: 'not a name' } });
  assert.equal(badName.status, 400);
  assert.equal(badName.body.code, 'invalid_request');
  const notJson = await request(url, 'POST', '/token', { raw: 'userId=alice', headers: { 'content-type': 'text/plain' } });
  assert.equal(notJson.status, 415);
  assert.equal((await request(url, 'GET', '/../package.json')).status, 404);
  const minted = await request(url, 'POST', '/token', { body: { userId: 'carol' } });
  assert.equal(minted.status, 201);
  assert.equal(minted.body.userId, 'carol');

  const browser = await launchBrowser(t);
  const alice = await browser.newPage();
  const bob = await browser.newPage();
  await signIn(alice, url, 'alice');
  await signIn(bob, url, 'bob');
  for (const page of [alice, bob]) {
    await page.locator('#room-title', { hasText: '#general' }).waitFor();
    assert.equal(await page.textContent('#room-title'), '#general');
    assert.equal(await page.textContent('#state'), 'connected');
  }

  // presence: both see both
  for (const [name, page] of [
    ['alice', alice],
    ['bob', bob],
  ] as const) {
    await eventually(`${name} sees alice and bob online`, async () => JSON.stringify(await texts(page, '#presence li')) === '["alice","bob"]');
  }

  // alice writes, mentioning bob, with markup that must stay text
  const hostile = 'hi @bob <img src=x onerror="window.pwned=1"><b>bold</b>';
  await send(alice, hostile);
  const aliceMessage = bob.locator('#messages li[data-sender="alice"]');
  await aliceMessage.waitFor();
  assert.equal(await aliceMessage.locator('.text').textContent(), hostile);
  assert.equal(await bob.locator('#messages img, #messages b').count(), 0, 'message text is never parsed as markup');
  assert.equal(await bob.evaluate(() => (globalThis as any).pwned), undefined);
  assert.equal(await aliceMessage.locator('button.retract').count(), 0, "bob cannot retract alice's message");
  const messageId = await aliceMessage.getAttribute('data-id');
  assert.match(messageId ?? '', /^msg_/);

  // the mention lands in bob's inbox panel
  const mention = bob.locator('#inbox li[data-type="mention"]');
  await mention.waitFor();
  assert.equal(await mention.textContent(), 'alice mentioned you in #general');
  assert.equal(await bob.textContent('#inbox-count'), '1');
  assert.equal(await alice.locator('#inbox li').count(), 0, 'alice mentioned nobody');

  // bob answers; alice sees it
  await send(bob, 'hello alice');
  await alice.locator('#messages li[data-sender="bob"] .text', { hasText: 'hello alice' }).waitFor();
  assert.deepEqual(await texts(alice, '#messages li .text'), [hostile, 'hello alice']);

  // alice retracts hers: it disappears from both pages, bob's stays
  await alice.click(`#messages li[data-id="${messageId}"] button.retract`);
  for (const page of [alice, bob]) await page.locator(`#messages li[data-id="${messageId}"]`).waitFor({ state: 'detached' });
  assert.deepEqual(await texts(bob, '#messages li .text'), ['hello alice']);
  assert.deepEqual(await texts(alice, '#messages li .text'), ['hello alice']);

  // bob moves to the archive: the newest page of history, then the older one on demand
  await bob.fill('#room-input', 'archive');
  await bob.press('#room-input', 'Enter');
  await bob.locator('#room-title', { hasText: '#archive' }).waitFor();
  await eventually('bob sees the newest page', async () => (await texts(bob, '#messages li .text')).length === 30);
  assert.deepEqual(
    await texts(bob, '#messages li .text'),
    Array.from({ length: 30 }, (_, i) => `old ${i + 16}`),
  );
  await bob.locator('#earlier').waitFor();
  await bob.click('#earlier');
  await eventually('bob paged back to the first message', async () => (await texts(bob, '#messages li .text')).length === 45);
  assert.deepEqual(
    await texts(bob, '#messages li .text'),
    Array.from({ length: 45 }, (_, i) => `old ${i + 1}`),
  );
  await bob.locator('#earlier').waitFor({ state: 'hidden' });
  // and live messages still come after it
  assert.equal((await control.post('/v1/channels/archive/messages', { content: { text: 'new 46' } })).status, 201);
  await bob.locator('#messages li .text', { hasText: 'new 46' }).waitFor();
  assert.equal((await texts(bob, '#messages li .text')).at(-1), 'new 46');

  // bob left general: alice sees him go; the mention in his inbox takes him back
  await eventually('alice sees bob leave', async () => JSON.stringify(await texts(alice, '#presence li')) === '["alice"]');
  // from the keyboard: the notification is a button
  await mention.getByRole('button').focus();
  await bob.keyboard.press('Enter');
  await bob.locator('#room-title', { hasText: '#general' }).waitFor();
  assert.equal(await bob.textContent('#inbox-count'), '0');
  await eventually('alice sees bob back', async () => JSON.stringify(await texts(alice, '#presence li')) === '["alice","bob"]');
  await eventually('bob sees the conversation', async () => JSON.stringify(await texts(bob, '#messages li .text')) === '["hello alice"]');

  // the README's quick-start snippet gets a token from this example's backend as the page does
  const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
  const getToken = readme.match(/^async function getToken\(\) \{\n[\s\S]*?\n\}$/m)?.[0];
  assert.ok(getToken, "README.md's quick start has a getToken function");
  const readmeToken = await alice.evaluate(`(${getToken})()`);
  assert.equal(typeof readmeToken, 'string');
  assert.equal((await request(gw.realtimeUrl, 'GET', '/v1/me', { token: readmeToken as string })).body.userId, 'alice');

  browser.assertNoErrors();
});

/** Fails when the page scrolls sideways: its content is wider than the viewport. */
async function expectNoHorizontalOverflow(page: Page, where: string): Promise<void> {
  const [scrollWidth, innerWidth] = (await page.evaluate('[document.documentElement.scrollWidth, innerWidth]')) as [number, number];
  assert.ok(scrollWidth <= innerWidth, `${where}: the page is ${scrollWidth} px wide in a ${innerWidth} px viewport`);
}

/** Fails unless `selector`'s element lies wholly inside the viewport (it can be seen and reached without scrolling the page). */
async function expectInViewport(page: Page, selector: string): Promise<void> {
  const box = await page.locator(selector).boundingBox();
  const viewport = page.viewportSize()!;
  assert.ok(box, `${selector} is not rendered`);
  assert.ok(
    box.x >= 0 && box.y >= 0 && box.x + box.width <= viewport.width && box.y + box.height <= viewport.height,
    `${selector} at ${JSON.stringify(box)} is not inside ${viewport.width}×${viewport.height}`,
  );
}

test('browser chat - on a 390×844 phone screen: no sideways scrolling, the composer and messages usable; axe-core finds nothing serious in any state', async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1 });
  const gw = cluster.gateways[0]!;
  const env = await cluster.createEnvironment();
  const control = client(gw.controlUrl, env.secretKey);
  const { url } = await startChatExample(t, { RTM_SECRET_KEY: env.secretKey, RTM_CONTROL_URL: gw.controlUrl, RTM_REALTIME_URL: gw.realtimeUrl });
  // a long word, a long sender name, and a message that mentions the reader (highlighted, and in her inbox)
  const longSender = `someone.with.a.very.long.user.name.${'x'.repeat(40)}`;
  const published = [
    { senderId: 'bob', content: { text: `look: https://example.com/${'a'.repeat(150)}` } },
    { senderId: longSender, content: { text: 'hello from far away' } },
    { senderId: 'bob', content: { text: '@alice are you there?' }, mentions: ['alice'] },
  ];
  for (const body of published) assert.equal((await control.post('/v1/channels/general/messages', body)).status, 201);

  const browser = await launchBrowser(t);
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await page.goto(url);
  await page.locator('body[data-ready="true"]').waitFor();
  await expectNoHorizontalOverflow(page, 'the sign-in form');
  await expectNoSeriousAxeViolations(page, "the chat's sign-in form");

  await page.fill('#login-user', 'alice');
  await page.click('#login button[type="submit"]');
  await page.locator('#state[data-state="connected"]').waitFor();
  await eventually('the history is shown', async () => (await texts(page, '#messages li .text')).length === 3);
  await page.locator('#inbox li[data-type="mention"]').waitFor();
  await expectNoHorizontalOverflow(page, 'the room, with a long word and a long name');

  // the composer is on screen and sends; the new message is seen at once
  await expectInViewport(page, '#composer-text');
  await expectInViewport(page, '#composer button[type="submit"]');
  await send(page, 'typed on a phone');
  await page.locator('#messages li.mine .text', { hasText: 'typed on a phone' }).waitFor();
  await expectInViewport(page, '#messages li.mine');
  await expectInViewport(page, '#messages li.mine button.retract');
  await expectNoHorizontalOverflow(page, 'the room after sending');
  // another room from the list, and back
  await page.click('#rooms button[data-room="random"]');
  await page.locator('#room-title', { hasText: '#random' }).waitFor();
  await page.click('#rooms button[data-room="general"]');
  await page.locator('#messages li .text', { hasText: 'typed on a phone' }).waitFor();

  await expectNoSeriousAxeViolations(page, 'the chat room');
  // every look of the connection pill, and the problem banner (set by hand: the styles are under test)
  for (const state of ['connecting', 'disconnected', 'suspended', 'closed', 'idle', 'connected']) {
    await page.evaluate(`document.getElementById('state').dataset.state = ${JSON.stringify(state)}`);
    await expectNoSeriousAxeViolations(page, `the chat room with the connection pill ${state}`);
  }
  await page.evaluate(`Object.assign(document.getElementById('problem'), { hidden: false, textContent: 'Could not load earlier messages: unavailable' })`);
  await expectNoSeriousAxeViolations(page, 'the chat room with a problem shown');
  await expectNoHorizontalOverflow(page, 'the chat room with a problem shown');
  browser.assertNoErrors();
});
