import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { errorCode, mintToken, request } from './helpers/http.ts';
import { DashboardClient, createUser } from './helpers/dashboard.ts';
import { openSocket } from './helpers/ws.ts';

const PASSWORD = 'correct horse battery';

test('dashboard messages, members and bans - browse, filter, retract, moderate; viewers read, other organizations see nothing', async (t) => {
  const cluster = await startCluster(t, { channelNodes: 1 });
  const gateway = cluster.gateways[0]!;
  const owner = await createUser(cluster.db.pool, { email: 'olivia@example.com', password: PASSWORD, organization: 'acme', role: 'owner' });
  await createUser(cluster.db.pool, { email: 'victor@example.com', password: PASSWORD, organization: owner.organizationId, role: 'viewer' });
  await createUser(cluster.db.pool, { email: 'oscar@example.com', password: PASSWORD, organization: 'globex', role: 'owner' });
  const admin = new DashboardClient(gateway.controlUrl);
  const viewer = new DashboardClient(gateway.controlUrl);
  const outsider = new DashboardClient(gateway.controlUrl);
  assert.equal((await admin.signIn('olivia@example.com', PASSWORD)).status, 200);
  assert.equal((await viewer.signIn('victor@example.com', PASSWORD)).status, 200);
  assert.equal((await outsider.signIn('oscar@example.com', PASSWORD)).status, 200);
  const project = await admin.post(`/v1/dashboard/organizations/${owner.organizationId}/projects`, { name: 'chat' });
  const environment = await admin.post(`/v1/dashboard/projects/${project.body.id}/environments`, { name: 'prod' });
  const envId: string = environment.body.id;
  const secretKey: string = (await admin.post(`/v1/dashboard/environments/${envId}/keys`, { kind: 'secret' })).body.key;
  const base = `/v1/dashboard/environments/${envId}`;

  const publish = async (channelId: string, body: object) => {
    const res = await request(gateway.controlUrl, 'POST', `/v1/channels/${channelId}/messages`, { token: secretKey, body });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body as { id: string; seq: number; timestamp: number };
  };
  const first = await publish('room-1', { content: { text: 'one' }, senderId: 'alice', type: 'chat' });
  await new Promise((resolve) => setTimeout(resolve, 20));
  const second = await publish('room-1', { content: { text: 'two' }, senderId: 'bob', type: 'chat', to: ['alice'] });
  await new Promise((resolve) => setTimeout(resolve, 20));
  const third = await publish('room-1', { content: { text: 'three' }, senderId: 'alice', type: 'notice' });
  await publish('room-2', { content: { text: 'elsewhere' } });

  const audit = async () => (await admin.get(`/v1/dashboard/organizations/${owner.organizationId}/audit?limit=100`)).body.data as any[];

  await t.test('channels: message count and last activity, paged', async () => {
    const all = await viewer.get(`${base}/channels`);
    assert.equal(all.status, 200, JSON.stringify(all.body));
    assert.deepEqual(
      all.body.data.map((c: any) => [c.channelId, c.messageCount, c.lastSeq]),
      [
        ['room-1', 3, 3],
        ['room-2', 1, 1],
      ],
    );
    assert.equal(all.body.data[0].lastActivityAt, new Date(third.timestamp).toISOString());
    assert.equal(all.body.nextCursor, null);
    const page1 = await viewer.get(`${base}/channels?limit=1`);
    assert.deepEqual(
      page1.body.data.map((c: any) => c.channelId),
      ['room-1'],
    );
    const page2 = await viewer.get(`${base}/channels?limit=1&cursor=${page1.body.nextCursor}`);
    assert.deepEqual(
      page2.body.data.map((c: any) => c.channelId),
      ['room-2'],
    );
    assert.equal(page2.body.nextCursor, null);
    assert.equal(errorCode(await viewer.get(`${base}/channels?cursor=${Buffer.from('a b').toString('base64url')}`)), 'invalid_request');
  });

  await t.test('history pages newest first, with filters by sender, type and time', async () => {
    const ids = async (query: string) => {
      const res = await viewer.get(`${base}/channels/room-1/messages${query}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.data.map((m: any) => m.id);
    };
    assert.deepEqual(await ids(''), [third.id, second.id, first.id]);
    const page = await viewer.get(`${base}/channels/room-1/messages?limit=2`);
    assert.deepEqual(
      page.body.data.map((m: any) => m.id),
      [third.id, second.id],
    );
    assert.equal(page.body.nextBefore, second.seq);
    assert.deepEqual(await ids(`?limit=2&before=${page.body.nextBefore}`), [first.id]);
    assert.deepEqual(await ids('?sender=alice'), [third.id, first.id]);
    assert.deepEqual(await ids('?type=chat'), [second.id, first.id]);
    assert.deepEqual(await ids('?sender=alice&type=chat'), [first.id]);
    const since = new Date(second.timestamp).toISOString();
    const until = new Date(third.timestamp).toISOString();
    assert.deepEqual(await ids(`?since=${since}`), [third.id, second.id]);
    assert.deepEqual(await ids(`?until=${until}`), [second.id, first.id]);
    assert.deepEqual(await ids(`?since=${since}&until=${until}`), [second.id]);
    assert.deepEqual(await ids('?sender=nobody'), []);
    assert.deepEqual((await viewer.get(`${base}/channels/unknown/messages`)).body.data, []);
    assert.equal(errorCode(await viewer.get(`${base}/channels/room-1/messages?since=yesterday`)), 'invalid_request');
  });

  await t.test('message detail, addressed messages included', async () => {
    const detail = await viewer.get(`${base}/channels/room-1/messages/${second.id}`);
    assert.equal(detail.status, 200);
    assert.equal(detail.body.channelId, 'room-1');
    assert.deepEqual(detail.body.content, { text: 'two' });
    assert.deepEqual(detail.body.to, ['alice']);
    assert.equal(detail.body.sender.id, 'bob');
    assert.equal(detail.body.retractedAt, null);
    assert.equal(errorCode(await viewer.get(`${base}/channels/room-2/messages/${second.id}`)), 'not_found');
  });

  await t.test('another organization: every route of the environment is 404', async () => {
    for (const path of [
      `${base}/channels`,
      `${base}/channels/room-1/messages`,
      `${base}/channels/room-1/messages/${first.id}`,
      `${base}/channels/room-1/members`,
      `${base}/channels/room-1/bans`,
      `${base}/bans`,
    ]) {
      assert.equal(errorCode(await outsider.get(path)), 'not_found', path);
    }
    assert.equal(errorCode(await outsider.post(`${base}/channels/room-1/messages/${first.id}/retract`, { reason: 'no' })), 'not_found');
    assert.equal(errorCode(await outsider.put(`${base}/channels/room-1/members/eve`, {})), 'not_found');
    assert.equal(errorCode(await outsider.put(`${base}/bans/eve`, {})), 'not_found');
  });

  await t.test('retract with a reason: the same retraction sockets see; viewers and missing CSRF refused; audited', async () => {
    const token = await mintToken(gateway.controlUrl, secretKey, 'alice');
    const socket = openSocket(gateway.realtimeUrl, `/v1/channels/room-1?token=${token}`);
    await socket.waitFor('ready', (f) => f.op === 'ready');
    const path = `${base}/channels/room-1/messages/${first.id}/retract`;
    assert.equal(errorCode(await viewer.post(path, { reason: 'spam' })), 'forbidden');
    assert.equal(errorCode(await admin.post(path, { reason: 'spam' }, { 'x-csrf-token': undefined })), 'forbidden');
    assert.equal(errorCode(await admin.post(path, { reason: 'spam' }, { origin: 'https://evil.example' })), 'forbidden');
    assert.equal(errorCode(await admin.post(path, {})), 'invalid_request');
    assert.equal((await viewer.get(`${base}/channels/room-1/messages/${first.id}`)).body.retracted, false, 'refusals change nothing');

    const retracted = await admin.post(path, { reason: 'spam' });
    assert.equal(retracted.status, 200, JSON.stringify(retracted.body));
    assert.equal(retracted.body.retracted, true);
    assert.equal(retracted.body.content, null);
    assert.ok(retracted.body.retractedAt);
    const frame = await socket.waitFor('retract frame', (f) => f.op === 'retract');
    assert.deepEqual(frame, { op: 'retract', id: first.id, seq: first.seq, eventSeq: frame.eventSeq, reason: 'spam' });
    assert.ok(frame.eventSeq > first.seq, 'the retraction took a later seq of the channel');
    const history = await request(gateway.controlUrl, 'GET', '/v1/channels/room-1/history', { token: secretKey });
    assert.equal(history.body.messages.find((m: any) => m.id === first.id).retracted, true);
    // again: answered, nothing new recorded
    assert.equal((await admin.post(path, { reason: 'spam' })).status, 200);
    const entries = (await audit()).filter((e) => e.action === 'message.retracted');
    assert.equal(entries.length, 1);
    assert.equal(entries[0].actor.email, 'olivia@example.com');
    assert.deepEqual(entries[0].target, { type: 'message', id: first.id });
    assert.equal(entries[0].details.reason, 'spam');
    await socket.close();
  });

  await t.test("channel members: add, list, remove (closing the user's sockets); viewers read only", async () => {
    const members = `${base}/channels/room-1/members`;
    assert.equal(errorCode(await viewer.put(`${members}/carol`, { role: 'moderator' })), 'forbidden');
    assert.equal(errorCode(await admin.put(`${members}/carol`, { role: 'moderator' }, { 'x-csrf-token': 'wrong' })), 'forbidden');
    const added = await admin.put(`${members}/carol`, { role: 'moderator' });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    assert.deepEqual(
      { ...added.body, createdAt: undefined, updatedAt: undefined },
      { channelId: 'room-1', userId: 'carol', role: 'moderator', createdAt: undefined, updatedAt: undefined },
    );
    assert.equal((await admin.put(`${members}/dave`)).status, 200);
    const list = await viewer.get(`${members}?limit=1`);
    assert.deepEqual(
      list.body.data.map((m: any) => [m.userId, m.role]),
      [['carol', 'moderator']],
    );
    assert.equal(list.body.nextAfter, 'carol');
    assert.deepEqual(
      (await viewer.get(`${members}?after=carol`)).body.data.map((m: any) => m.userId),
      ['dave'],
    );

    const token = await mintToken(gateway.controlUrl, secretKey, 'carol');
    const socket = openSocket(gateway.realtimeUrl, `/v1/channels/room-1?token=${token}`);
    await socket.waitFor('ready', (f) => f.op === 'ready');
    assert.equal(errorCode(await viewer.delete(`${members}/carol`)), 'forbidden');
    assert.equal((await admin.delete(`${members}/carol`)).status, 204);
    assert.equal((await socket.closed).code, 4403);
    assert.deepEqual(
      (await viewer.get(members)).body.data.map((m: any) => m.userId),
      ['dave'],
    );
    assert.equal((await admin.delete(`${members}/carol`)).status, 204, 'idempotent');
    const actions = (await audit()).map((e) => `${e.action}:${e.target.id}:${e.details.channelId ?? ''}`);
    assert.ok(actions.includes('channel_member.put:carol:room-1'), actions.join());
    assert.ok(actions.includes('channel_member.removed:carol:room-1'), actions.join());
  });

  await t.test('bans of a channel and of the environment: refuse access, kick, list, lift; viewers read only', async () => {
    const malloryToken = await mintToken(gateway.controlUrl, secretKey, 'mallory');
    const asMallory = (path: string) => request(gateway.realtimeUrl, 'GET', path, { token: malloryToken });
    const socket = openSocket(gateway.realtimeUrl, `/v1/channels/room-1?token=${malloryToken}`);
    await socket.waitFor('ready', (f) => f.op === 'ready');

    assert.equal(errorCode(await viewer.put(`${base}/channels/room-1/bans/mallory`, { reason: 'spam' })), 'forbidden');
    const ban = await admin.put(`${base}/channels/room-1/bans/mallory`, { reason: 'spam' });
    assert.equal(ban.status, 200, JSON.stringify(ban.body));
    assert.equal(ban.body.channelId, 'room-1');
    assert.equal((await socket.closed).code, 4403);
    assert.equal(errorCode(await asMallory('/v1/channels/room-1/history')), 'banned');
    assert.equal((await asMallory('/v1/channels/room-2/history')).status, 200);
    const listed = await viewer.get(`${base}/channels/room-1/bans`);
    assert.deepEqual(
      listed.body.data.map((b: any) => [b.userId, b.reason]),
      [['mallory', 'spam']],
    );
    assert.equal(errorCode(await admin.put(`${base}/channels/room-1/bans/mallory`, { expiresAt: '2000-01-01T00:00:00Z' })), 'invalid_request');
    assert.equal(errorCode(await viewer.delete(`${base}/channels/room-1/bans/mallory`)), 'forbidden');
    assert.equal((await admin.delete(`${base}/channels/room-1/bans/mallory`)).status, 204);
    assert.equal((await asMallory('/v1/channels/room-1/history')).status, 200);
    assert.deepEqual((await viewer.get(`${base}/channels/room-1/bans`)).body.data, []);

    const envBan = await admin.put(`${base}/bans/mallory`, { reason: 'abuse' });
    assert.equal(envBan.status, 200);
    assert.equal(envBan.body.channelId, null);
    assert.equal(errorCode(await request(gateway.controlUrl, 'POST', '/v1/tokens', { token: secretKey, body: { userId: 'mallory' } })), 'banned');
    assert.deepEqual(
      (await viewer.get(`${base}/bans`)).body.data.map((b: any) => b.userId),
      ['mallory'],
    );
    assert.deepEqual((await viewer.get(`${base}/channels/room-1/bans`)).body.data, [], 'environment bans are listed apart');
    assert.equal(errorCode(await admin.delete(`${base}/bans/mallory`, undefined, { 'x-csrf-token': undefined })), 'forbidden');
    assert.equal((await admin.delete(`${base}/bans/mallory`)).status, 204);
    assert.equal((await request(gateway.controlUrl, 'POST', '/v1/tokens', { token: secretKey, body: { userId: 'mallory' } })).status, 201);

    const bans = (await audit()).filter((e) => e.action.startsWith('ban.')).map((e) => `${e.action}:${e.details.channelId}`);
    assert.deepEqual(bans.sort(), ['ban.put:null', 'ban.put:room-1', 'ban.removed:null', 'ban.removed:room-1']);
  });
});
