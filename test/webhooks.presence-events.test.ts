/**
 * The presence-driven webhook events through the real processes, over two gateways (a third is
 * killed with SIGKILL): `channel.occupied` once when the first subscribers arrive on both,
 * `channel.vacated` once when the last leaves; `presence.entered` / `presence.left` with the data
 * where the namespace turns `presenceWebhooks` on and never where it does not; `channel.occupancy`
 * at most once per interval and only when a count changed; a channel that flaps within one second
 * sends nothing; a gateway that dies vacates its channels when its records expire, reported once
 * although both survivors see it, and one drained with SIGTERM records its own before it exits. Endpoints filtered to other types or other channels, and one
 * without a type filter (the types are opt-in), get none of them. Every delivery is verified with
 * the `standardwebhooks` library and with the service's own signature.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { verifyWebhookSignature } from '@rtm/webhooks';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '@rtm/schemas';
import { startCluster, type RunningProcess } from './helpers/cluster.ts';
import { client, mintToken } from './helpers/http.ts';
import { eventually } from './helpers/eventually.ts';
import { openSocket, type TestSocket } from './helpers/ws.ts';
import { startReceiver, type ReceivedWebhook } from './helpers/webhook-receiver.ts';

const TYPES: WebhookEventType[] = ['channel.occupied', 'channel.vacated', 'channel.occupancy', 'presence.entered', 'presence.left'];
const OCCUPANCY_MS = 2_000;
const TTL_MS = 3_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Event {
  id: string;
  type: WebhookEventType;
  channelId: string;
  timestamp: number;
  data: any;
}

/** The event of a delivery, after both signatures verified and its data checked against the catalogue. */
function verified(received: ReceivedWebhook, secret: string, environmentId: string): Event {
  const raw = received.raw.toString('utf8');
  const headers = {
    'webhook-id': String(received.headers['webhook-id']),
    'webhook-timestamp': String(received.headers['webhook-timestamp']),
    'webhook-signature': String(received.headers['webhook-signature']),
  };
  const body = new Webhook(secret).verify(raw, headers) as Event & { environmentId: string };
  const own = verifyWebhookSignature(received.raw, received.headers['service-signature'] as string, secret);
  assert.equal(own.ok, true, `service-signature of ${raw}: ${JSON.stringify(own)}`);
  assert.equal(body.environmentId, environmentId);
  assert.equal(headers['webhook-id'], body.id);
  assert.match(body.id, /^evt_[0-9a-z]{26}$/);
  assert.deepEqual(WEBHOOK_EVENT_TYPES[body.type].data.parse(body.data), body.data, `${body.type}: data as the catalogue says`);
  assert.equal(body.data.channelId, body.channelId);
  return body;
}

test('presence webhook events - occupied, vacated, occupancy, entered and left, once per cluster over two gateways', { timeout: 300_000 }, async (t) => {
  const cluster = await startCluster(t, {
    gateways: 2,
    channelNodes: 1,
    dispatchers: 1,
    env: { PRESENCE_OCCUPANCY_WEBHOOK_MS: String(OCCUPANCY_MS), PRESENCE_TTL_MS: String(TTL_MS) },
  });
  const [gwA, gwB] = cluster.gateways as [RunningProcess, RunningProcess];
  const env = await cluster.createEnvironment();
  const quietEnv = await cluster.createEnvironment();
  const api = client(gwA.controlUrl, env.secretKey);
  const deployed = await api.put('/v1/config', {
    namespaces: [{ prefix: 'hooks:', presenceWebhooks: true }, { prefix: 'plain:' }],
  });
  assert.equal(deployed.status, 200, JSON.stringify(deployed.body));
  const [all, elsewhere, otherTypes, catchAll] = [await startReceiver(t), await startReceiver(t), await startReceiver(t), await startReceiver(t)];
  const endpoint = async (body: object) => {
    const created = await api.post('/v1/webhook-endpoints', body);
    assert.equal(created.status, 201, JSON.stringify(created.body));
    return created.body as { id: string; secret: string };
  };
  const allEp = await endpoint({ url: all.url, eventTypes: TYPES });
  const elsewhereEp = await endpoint({ url: elsewhere.url, eventTypes: TYPES, channels: ['elsewhere*'] });
  const otherTypesEp = await endpoint({ url: otherTypes.url, eventTypes: ['member.added', 'message.published'] });
  const catchAllEp = await endpoint({ url: catchAll.url });

  const sockets: TestSocket[] = [];
  t.after(() => Promise.all(sockets.map((s) => s.close())));
  const tokens = new Map<string, string>();
  const tokenOf = async (user: string) => {
    if (!tokens.has(user)) tokens.set(user, await mintToken(gwA.controlUrl, env.secretKey, user));
    return tokens.get(user)!;
  };
  let ref = 0;
  const connect = async (gw: RunningProcess, user: string) => {
    const socket = openSocket(gw.realtimeUrl, `/v1/connect?token=${await tokenOf(user)}`);
    sockets.push(socket);
    await socket.waitFor(`${user} connected`, (f) => f.op === 'connected');
    return socket;
  };
  const ask = async (socket: TestSocket, frame: Record<string, unknown>, answer: string) => {
    const r = ++ref;
    socket.send({ ...frame, ref: r });
    const got = await socket.waitFor(`${frame.op} ${String(frame.channelId)}`, (f) => f.ref === r);
    assert.equal(got.op, answer, JSON.stringify(got));
  };
  const subscribe = (socket: TestSocket, channelId: string) => ask(socket, { op: 'subscribe', channelId }, 'subscribed');
  const unsubscribe = (socket: TestSocket, channelId: string) => ask(socket, { op: 'unsubscribe', channelId }, 'unsubscribed');

  const events = () => {
    const byId = new Map<string, Event>();
    for (const received of all.received) {
      const event = verified(received, allEp.secret, env.environmentId);
      byId.set(event.id, event);
    }
    return [...byId.values()];
  };
  const of = (type: WebhookEventType, channelId: string) => events().filter((e) => e.type === type && e.channelId === channelId);
  const waitFor = (what: string, type: WebhookEventType, channelId: string, count = 1) =>
    eventually(what, async () => of(type, channelId).length >= count, 30_000);

  // each gateway reads which endpoints want the events every few seconds: until both do, a fresh
  // channel's first subscriber on each gateway is tried again
  for (const [name, gw] of [
    ['a', gwA],
    ['b', gwB],
  ] as const) {
    let attempt = 0;
    await eventually(
      `gateway ${name} reports channel.occupied`,
      async () => {
        const channelId = `hooks:warm-${name}-${++attempt}`;
        const socket = await connect(gw, 'warm');
        await subscribe(socket, channelId);
        await sleep(1_500);
        await socket.close();
        return of('channel.occupied', channelId).length > 0;
      },
      30_000,
    );
  }

  // first subscribers on both gateways at once: one channel.occupied
  const ann = await connect(gwA, 'ann');
  const bob = await connect(gwB, 'bob');
  await Promise.all([subscribe(ann, 'hooks:room'), subscribe(bob, 'hooks:room')]);
  await waitFor('hooks:room occupied', 'channel.occupied', 'hooks:room');
  // presence entries on both gateways, with data
  await ask(ann, { op: 'presence-enter', channelId: 'hooks:room', data: { status: 'here', n: 1 } }, 'presence-entered');
  await ask(bob, { op: 'presence-enter', channelId: 'hooks:room', data: null }, 'presence-entered');
  await eventually('ann and bob entered', async () => of('presence.entered', 'hooks:room').flatMap((e) => e.data.members).length >= 2, 30_000);
  // a namespace without presenceWebhooks: the channel's events, no presence events
  const carl = await connect(gwA, 'carl');
  await subscribe(carl, 'plain:room');
  await ask(carl, { op: 'presence-enter', channelId: 'plain:room', data: { status: 'quiet' } }, 'presence-entered');
  await waitFor('plain:room occupied', 'channel.occupied', 'plain:room');

  // counts: 2 connections of 2 users, then a second connection of ann on b: 3 of 2, then nothing
  // more while they stay; at most one per interval (slot), a new one only when a count changed
  await eventually('occupancy 2/2', async () => of('channel.occupancy', 'hooks:room').some((e) => e.data.connections === 2 && e.data.users === 2), 30_000);
  const annOnB = await connect(gwB, 'ann');
  await subscribe(annOnB, 'hooks:room');
  await eventually('occupancy 3/2', async () => of('channel.occupancy', 'hooks:room').some((e) => e.data.connections === 3 && e.data.users === 2), 30_000);
  await sleep(3 * OCCUPANCY_MS + 1_000);
  const occupancy = of('channel.occupancy', 'hooks:room').sort((x, y) => x.timestamp - y.timestamp);
  const counts = occupancy.map((e) => `${e.data.connections}/${e.data.users}`);
  assert.equal(counts.at(-1), '3/2', `the last counts, nothing after them while they stay: ${counts}`);
  assert.ok(counts.includes('2/2'), counts.join());
  for (const [i, event] of occupancy.entries()) {
    assert.equal(event.timestamp % OCCUPANCY_MS, 0, 'dated by its slot');
    if (i === 0) continue;
    assert.ok(event.timestamp - occupancy[i - 1]!.timestamp >= OCCUPANCY_MS, `one per slot: ${JSON.stringify(occupancy)}`);
    assert.notEqual(counts[i], counts[i - 1], 'only when a count changed');
  }

  // a channel that flaps within one second on one gateway: nothing (the pause lets the arrival
  // reach the bucket: one that leaves before its record is written was never there)
  const flapper = await connect(gwA, 'dora');
  await subscribe(flapper, 'hooks:flap');
  await sleep(200);
  await unsubscribe(flapper, 'hooks:flap');

  // leaving: ann's entry by presence-leave, bob's with his connection, then everyone
  await ask(ann, { op: 'presence-leave', channelId: 'hooks:room' }, 'presence-left');
  await bob.close();
  await eventually('ann and bob left', async () => of('presence.left', 'hooks:room').flatMap((e) => e.data.members).length >= 2, 30_000);
  await Promise.all([ann.close(), annOnB.close()]);
  await waitFor('hooks:room vacated', 'channel.vacated', 'hooks:room');

  // a gateway that dies: its channel is vacated and its entries left when its records expire
  const gwC = await cluster.start('gateway');
  const eve = await connect(gwC, 'eve');
  let crash = '';
  await eventually(
    'gateway c reports',
    async () => {
      crash = `hooks:crash-${++ref}`;
      await subscribe(eve, crash);
      await ask(eve, { op: 'presence-enter', channelId: crash, data: { on: 'c' } }, 'presence-entered');
      await sleep(1_500);
      return of('presence.entered', crash).length > 0;
    },
    30_000,
  );
  const crashedAt = Date.now();
  await gwC.kill();
  await waitFor(`${crash} vacated`, 'channel.vacated', crash);
  await waitFor('eve left', 'presence.left', crash);
  assert.ok(Date.now() - crashedAt >= TTL_MS - 1_000, 'not before the records expired');
  await sleep(3_000); // both survivors decided it: still one of each

  // a gateway drained with SIGTERM records its own channel's vacated before it exits (nobody else would: it wrote it)
  const gwD = await cluster.start('gateway');
  const fay = await connect(gwD, 'fay');
  let drained = '';
  await eventually(
    'gateway d reports',
    async () => {
      drained = `hooks:drain-${++ref}`;
      await subscribe(fay, drained);
      await sleep(1_500);
      return of('channel.occupied', drained).length > 0;
    },
    30_000,
  );
  assert.equal(await gwD.stop(), 0);
  const ledger = await api.get(`/v1/webhooks/deliveries?endpointId=${allEp.id}&limit=500`);
  assert.ok(
    ledger.body.data.some((d: { eventType: string; channelId?: string }) => d.eventType === 'channel.vacated' && d.channelId === drained),
    'in the ledger when the drained gateway has exited',
  );
  await waitFor(`${drained} vacated`, 'channel.vacated', drained);

  // exactly once per cluster, with the data
  await sleep(2_000);
  for (const type of ['channel.occupied', 'channel.vacated'] as const) {
    for (const channelId of ['hooks:room', crash, drained])
      assert.equal(of(type, channelId).length, 1, `one ${type} of ${channelId}: ${JSON.stringify(of(type, channelId))}`);
  }
  assert.equal(of('channel.occupied', 'plain:room').length, 1);
  assert.deepEqual(
    events().filter((e) => e.channelId === 'hooks:flap'),
    [],
    'a flap within one second sends nothing',
  );
  const members = (type: WebhookEventType, channelId: string) =>
    of(type, channelId)
      .flatMap((e) => e.data.members)
      .sort((x: any, y: any) => (x.userId < y.userId ? -1 : 1));
  assert.deepEqual(members('presence.entered', 'hooks:room'), [
    { userId: 'ann', data: { status: 'here', n: 1 } },
    { userId: 'bob', data: null },
  ]);
  assert.deepEqual(members('presence.left', 'hooks:room'), [
    { userId: 'ann', data: { status: 'here', n: 1 } },
    { userId: 'bob', data: null },
  ]);
  assert.deepEqual(members('presence.left', crash), [{ userId: 'eve', data: { on: 'c' } }]);
  assert.deepEqual(
    events().filter((e) => e.channelId === 'plain:room' && e.type.startsWith('presence.')),
    [],
    'not opted in: no presence events',
  );
  // the others: not their channels, not their types, not named (opt-in): nothing in their ledgers
  for (const [name, ep, receiver] of [
    ['elsewhere', elsewhereEp, elsewhere],
    ['other types', otherTypesEp, otherTypes],
    ['catch-all', catchAllEp, catchAll],
  ] as const) {
    const ledger = await api.get(`/v1/webhooks/deliveries?endpointId=${ep.id}&limit=500`);
    assert.equal(ledger.status, 200);
    assert.deepEqual(ledger.body.data, [], `${name}: no deliveries`);
    assert.deepEqual(receiver.received, [], `${name}: nothing received`);
  }
  // an environment without such endpoints: nothing written at all
  const quietToken = await mintToken(gwA.controlUrl, quietEnv.secretKey, 'zed');
  const zed = openSocket(gwB.realtimeUrl, `/v1/connect?token=${quietToken}`);
  sockets.push(zed);
  await zed.waitFor('zed connected', (f) => f.op === 'connected');
  await subscribe(zed, 'hooks:room');
  await sleep(2_000);
  const { rows } = await cluster.db.pool.query(`select count(*)::int as n from webhook_deliveries where environment_id = $1`, [quietEnv.environmentId]);
  assert.equal(rows[0].n, 0);
});
