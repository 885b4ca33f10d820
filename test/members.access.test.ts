import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { client, errorCode, mintToken } from './helpers/http.ts';
import { eventually } from './helpers/eventually.ts';

test('members - deployed default access, per-channel override and membership decide who reads and publishes, on every gateway', async (t) => {
  const cluster = await startCluster(t, { gateways: 2, channelNodes: 1 });
  const [gwA, gwB] = cluster.gateways as [(typeof cluster.gateways)[0], (typeof cluster.gateways)[0]];
  const env = await cluster.createEnvironment();
  const control = client(gwA.controlUrl, env.secretKey);
  const alice = await mintToken(gwA.controlUrl, env.secretKey, 'alice');
  const onA = client(gwA.realtimeUrl, alice);
  const onB = client(gwB.realtimeUrl, alice);
  const say = (api: typeof onA, channel: string) => api.post(`/v1/channels/${channel}/messages`, { content: { text: 'hi' } });

  // default: open
  assert.equal((await say(onB, 'plaza')).status, 201);

  // the deployed default becomes members-only: channels without their own setting follow it
  assert.equal((await control.put('/v1/config', { channels: { access: 'members' } })).status, 200);
  await eventually('members-only default reaches gateway B', async () => (await onB.get('/v1/channels/plaza/history')).status === 403);
  assert.equal(errorCode(await onB.get('/v1/channels/plaza/history')), 'forbidden');
  assert.equal(errorCode(await say(onA, 'plaza')), 'forbidden');

  // membership admits her at once on every gateway (both have just cached the refusal)
  assert.equal((await control.put('/v1/channels/plaza/members/alice')).status, 200);
  assert.equal((await say(onB, 'plaza')).status, 201);
  const history = await onA.get('/v1/channels/plaza/history');
  assert.equal(history.status, 200);
  assert.equal(history.body.messages.length, 2);

  // a channel's own setting overrides the default, also for a channel that has no row yet
  assert.equal(errorCode(await onA.get('/v1/channels/garden/history')), 'forbidden');
  assert.deepEqual((await control.put('/v1/channels/garden', { access: 'open' })).body, { channelId: 'garden', access: 'open' });
  const first = await say(onA, 'garden');
  assert.equal(first.status, 201);
  assert.equal(first.body.seq, 1);
  assert.equal((await onB.get('/v1/channels/garden/history')).body.messages.length, 1);

  // and back: a members-only override on an open environment
  assert.equal((await control.put('/v1/config', { channels: { access: 'open' } })).status, 200);
  await eventually('open default reaches gateway B', async () => (await onB.get('/v1/channels/square/history')).status === 200);
  await control.put('/v1/channels/square', { access: 'members' });
  assert.equal(errorCode(await onB.get('/v1/channels/square/history')), 'forbidden');
  assert.equal(errorCode(await say(onA, 'square')), 'forbidden');

  // removing the membership takes access away at once
  assert.equal((await control.delete('/v1/channels/plaza/members/alice')).status, 204);
  await control.put('/v1/channels/plaza', { access: 'members' });
  assert.equal(errorCode(await say(onB, 'plaza')), 'forbidden');

  // roles: a PUT replaces the role; the roster shows it
  await control.put('/v1/channels/square/members/alice', { role: 'moderator' });
  assert.deepEqual((await onA.get('/v1/channels/square/members')).body.members, [{ userId: 'alice', role: 'moderator', online: false }]);
  const demoted = await control.put('/v1/channels/square/members/alice', {});
  assert.equal(demoted.body.role, 'member');
  assert.ok(Date.parse(demoted.body.updatedAt) >= Date.parse(demoted.body.createdAt));
  assert.deepEqual((await onB.get('/v1/channels/square/members')).body.members, [{ userId: 'alice', role: 'member', online: false }]);

  // bad input
  assert.equal(errorCode(await control.put('/v1/channels/bad%20channel/members/alice')), 'invalid_request');
  assert.equal(errorCode(await control.put('/v1/channels/square/members/alice', { role: 'admin' })), 'invalid_request');
  assert.equal(errorCode(await control.put('/v1/channels/square/members/alice', { role: 'member', x: 1 })), 'invalid_request');
  const text = await control.put('/v1/channels/square', undefined, { 'content-type': 'text/plain' });
  assert.equal(text.status, 415);
  // a user token is a valid credential of the wrong kind on the control plane
  assert.equal(errorCode(await client(gwA.controlUrl, alice).put('/v1/channels/square/members/bob')), 'forbidden');
  const browser = await control.put('/v1/channels/square/members/bob', {}, { origin: 'https://evil.example' });
  assert.equal(errorCode(browser), 'origin_forbidden');
});
