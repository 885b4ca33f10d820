import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { client, errorCode, mintToken } from './helpers/http.ts';

/**
 * Two environments using the same channel id and the same user id: whatever A does, B neither
 * sees nor feels it, and A's key or tokens cannot reach B's resources by naming them.
 */
test('isolation - a key or token of environment A never reads or changes anything of B', async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1 });
  const { controlUrl, realtimeUrl } = cluster.gateways[0]!;
  const a = await cluster.createEnvironment('a');
  const b = await cluster.createEnvironment('b');
  const controlA = client(controlUrl, a.secretKey);
  const controlB = client(controlUrl, b.secretKey);

  await t.test('messages: the same channel id is two channels', async () => {
    const published = await controlA.post('/v1/channels/general/messages', { content: { text: 'for A only' } });
    assert.equal(published.status, 201, JSON.stringify(published.body));
    const historyA = await controlA.get('/v1/channels/general/history');
    assert.equal(historyA.body.messages.length, 1);
    const historyB = await controlB.get('/v1/channels/general/history');
    assert.equal(historyB.status, 200);
    assert.deepEqual(historyB.body.messages, []);
    // B's user reading B's channel on the realtime edge sees nothing of A either
    const userB = client(realtimeUrl, await mintToken(controlUrl, b.secretKey, 'alice'));
    const edgeB = await userB.get('/v1/channels/general/history');
    assert.equal(edgeB.status, 200);
    assert.deepEqual(edgeB.body.messages, []);
    // B cannot retract A's message by naming its id
    const retract = await controlB.delete(`/v1/channels/general/messages/${published.body.id}`);
    assert.equal(retract.status, 404);
    assert.equal(errorCode(retract), 'not_found');
    const stillThere = await controlA.get('/v1/channels/general/history');
    assert.equal(stillThere.body.messages[0].retracted, false);
  });

  await t.test('bans and channel access are per environment', async () => {
    assert.equal((await controlA.put('/v1/bans/alice', { reason: 'spam' })).status < 300, true);
    const bannedInA = await controlA.post('/v1/tokens', { userId: 'alice' });
    assert.equal(bannedInA.status, 403);
    assert.equal(errorCode(bannedInA), 'banned');
    assert.equal((await controlB.post('/v1/tokens', { userId: 'alice' })).status, 201);

    assert.equal((await controlA.put('/v1/channels/private', { access: 'members' })).status < 300, true);
    const userB = client(realtimeUrl, await mintToken(controlUrl, b.secretKey, 'bob'));
    assert.equal((await userB.get('/v1/channels/private/history')).status, 200);
    const userA = client(realtimeUrl, await mintToken(controlUrl, a.secretKey, 'bob'));
    assert.equal(errorCode(await userA.get('/v1/channels/private/history')), 'forbidden');
  });

  await t.test('configuration and webhook secrets are per environment', async () => {
    const deployed = await controlA.put('/v1/config', { webhooks: { url: 'https://hooks.example.com/a' } });
    assert.equal(deployed.status, 200, JSON.stringify(deployed.body));
    assert.equal((await controlA.get('/v1/webhooks/secret')).status, 200);
    const secretB = await controlB.get('/v1/webhooks/secret');
    assert.equal(secretB.status, 404);
    assert.equal(errorCode(secretB), 'webhooks_not_configured');
    const configB = await controlB.get('/v1/config');
    assert.equal(configB.status, 200);
    assert.equal(configB.body.deploymentId, null);
  });

  await t.test('webhook deliveries: B lists none of A and cannot open or retry one by id', async () => {
    assert.equal((await controlA.post('/v1/channels/general/messages', { content: { n: 2 } })).status, 201);
    const listA = await controlA.get('/v1/webhooks/deliveries');
    assert.equal(listA.status, 200);
    assert.ok(listA.body.data.length >= 1);
    const deliveryId = listA.body.data[0].id as string;
    assert.deepEqual((await controlB.get('/v1/webhooks/deliveries')).body.data, []);
    assert.equal(errorCode(await controlB.get(`/v1/webhooks/deliveries/${deliveryId}`)), 'not_found');
    assert.equal(errorCode(await controlB.post(`/v1/webhooks/deliveries/${deliveryId}/retry`)), 'not_found');
  });

  await t.test('notifications and logs tokens are per environment', async () => {
    const sent = await controlA.post('/v1/notifications', { userIds: ['carol'], payload: { hello: 'A' } });
    assert.equal(sent.status, 202, JSON.stringify(sent.body));
    const carolA = client(realtimeUrl, await mintToken(controlUrl, a.secretKey, 'carol'));
    const carolB = client(realtimeUrl, await mintToken(controlUrl, b.secretKey, 'carol'));
    assert.equal((await carolA.get('/v1/inbox')).body.notifications.length, 1);
    assert.deepEqual((await carolB.get('/v1/inbox')).body.notifications, []);
    const crossLogs = await controlB.post(`/v1/environments/${a.environmentId}/logs-token`);
    assert.equal(crossLogs.status, 403);
    assert.equal(errorCode(crossLogs), 'forbidden');
    assert.equal((await controlA.post(`/v1/environments/${a.environmentId}/logs-token`)).status, 201);
  });
});
