import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recordRunning } from '../../scripts/dev-environment.ts';
import { resolveChatSettings, SettingsError, type SettingsInput } from '../../examples/chat/settings.ts';

const STATE = {
  secretKey: 'sk_saved',
  running: { pid: 4242, controlUrl: 'http://127.0.0.1:9080', realtimeUrl: 'http://127.0.0.1:9081' },
};
const running = (pid: number) => pid === 4242;
const input = (over: Partial<SettingsInput>): SettingsInput => ({ env: {}, state: STATE, stateFile: '/x/state.json', alive: running, ...over });

test("chat settings - a running npm start's record gives the URLs, the state file the secret key", () => {
  const settings = resolveChatSettings(input({}));
  assert.equal(settings.controlUrl, 'http://127.0.0.1:9080');
  assert.equal(settings.realtimeUrl, 'http://127.0.0.1:9081');
  assert.equal(settings.secretKey, 'sk_saved');
  assert.equal(settings.source, 'npm start');
  assert.equal(settings.port, 3000);
  assert.equal(settings.tokenTtlSeconds, 600);
});

test('chat settings - nothing recorded, or a record whose npm start has ended: the default ports', () => {
  for (const state of [{ secretKey: 'sk_saved' }, STATE]) {
    const settings = resolveChatSettings(input({ state, alive: () => false }));
    assert.deepEqual([settings.controlUrl, settings.realtimeUrl, settings.source], ['http://127.0.0.1:8080', 'http://127.0.0.1:8081', 'defaults']);
  }
  // a malformed record counts as none
  for (const bad of [{ pid: 'x', controlUrl: 'http://a', realtimeUrl: 'http://b' }, { pid: 4242, controlUrl: 'ftp://a', realtimeUrl: 'http://b' }, null]) {
    assert.equal(resolveChatSettings(input({ state: { secretKey: 'sk_saved', running: bad } })).source, 'defaults');
  }
});

test('chat settings - the environment wins over the record: URLs, then ports, then the key', () => {
  const urls = resolveChatSettings(input({ env: { RTM_CONTROL_URL: 'https://control.example.com/', RTM_REALTIME_URL: 'https://rt.example.com' } }));
  assert.deepEqual([urls.controlUrl, urls.realtimeUrl, urls.source], ['https://control.example.com', 'https://rt.example.com', 'environment']);
  const ports = resolveChatSettings(input({ env: { CONTROL_PORT: '7000', REALTIME_PORT: '7001' } }));
  assert.deepEqual([ports.controlUrl, ports.realtimeUrl], ['http://127.0.0.1:7000', 'http://127.0.0.1:7001']);
  // each URL on its own: the realtime edge from the environment, the control plane from the record
  const mixed = resolveChatSettings(input({ env: { RTM_REALTIME_URL: 'http://10.0.0.5:8081' } }));
  assert.deepEqual([mixed.controlUrl, mixed.realtimeUrl], ['http://127.0.0.1:9080', 'http://10.0.0.5:8081']);
  assert.equal(resolveChatSettings(input({ env: { RTM_SECRET_KEY: 'sk_env' } })).secretKey, 'sk_env');
  assert.equal(resolveChatSettings(input({ env: { CHAT_PORT: '0', CHAT_TOKEN_TTL: '60' } })).port, 0);
});

test('chat settings - what it cannot run with is refused, naming the variable or the file', () => {
  assert.throws(
    () => resolveChatSettings(input({ state: undefined })),
    (e: Error) => e instanceof SettingsError && e.message.includes('/x/state.json'),
  );
  assert.throws(() => resolveChatSettings(input({ env: { RTM_CONTROL_URL: 'ws://x' } })), /RTM_CONTROL_URL/);
  assert.throws(() => resolveChatSettings(input({ env: { REALTIME_PORT: 'ninety' } })), /REALTIME_PORT/);
  assert.throws(() => resolveChatSettings(input({ env: { CHAT_TOKEN_TTL: '5' } })), /CHAT_TOKEN_TTL/);
});

test('chat settings - what npm start records (recordRunning) is what the example reads, and keeps the keys', async (t) => {
  const file = join(tmpdir(), `rtm-state-${randomBytes(4).toString('hex')}.json`);
  t.after(() => rm(file, { force: true }));
  await writeFile(file, JSON.stringify({ secretKey: 'sk_kept', login: { email: 'dev@localhost', password: 'p' } }));
  await recordRunning(file, { pid: 77, controlUrl: 'http://127.0.0.1:1234', realtimeUrl: 'http://127.0.0.1:1235' });
  const state = JSON.parse(await readFile(file, 'utf8'));
  assert.deepEqual(state.login, { email: 'dev@localhost', password: 'p' });
  const settings = resolveChatSettings({ env: {}, state, stateFile: file, alive: (pid) => pid === 77 });
  assert.deepEqual([settings.controlUrl, settings.realtimeUrl, settings.secretKey], ['http://127.0.0.1:1234', 'http://127.0.0.1:1235', 'sk_kept']);
});
