import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { client, mintToken, request } from './helpers/http.ts';
import { eventually } from './helpers/eventually.ts';
import { openSocket, type TestSocket } from './helpers/ws.ts';

const WINDOW_MS = 250;
const CHANNEL = 'stage';

/** A listener: every presence frame with its arrival time, and who it believes is online. */
interface Listener {
  name: string;
  socket: TestSocket;
  frames: { at: number; frame: any }[];
  online: Set<string>;
  everLeft: Set<string>;
}

/** The (userId, online) pairs of a presence frame (the single-change form too, so old servers are measured the same way). */
function changesOf(frame: any): [string, boolean][] {
  if (Array.isArray(frame.joined) || Array.isArray(frame.left)) {
    return [...(frame.joined ?? []).map((u: string) => [u, true]), ...(frame.left ?? []).map((u: string) => [u, false])] as [string, boolean][];
  }
  return [[frame.userId, frame.online === true]];
}

function listen(name: string, socket: TestSocket): Listener {
  const listener: Listener = { name, socket, frames: [], online: new Set(), everLeft: new Set() };
  socket.ws.on('message', (data) => {
    let frame: any;
    try {
      frame = JSON.parse(String(data));
    } catch {
      return;
    }
    if (frame?.op !== 'presence') return;
    listener.frames.push({ at: Date.now(), frame });
    for (const [userId, online] of changesOf(frame)) {
      if (online) listener.online.add(userId);
      else {
        listener.online.delete(userId);
        listener.everLeft.add(userId);
      }
    }
  });
  return listener;
}

/** Frames received at or after `since`, and the bound: at most one per window from `since` to the last of them. */
function framesSince(listener: Listener, since: number): { count: number; bound: number } {
  const frames = listener.frames.filter((f) => f.at >= since);
  const last = frames.at(-1)?.at ?? since;
  return { count: frames.length, bound: Math.ceil((last - since) / WINDOW_MS) + 1 };
}

test('presence - churn and bursts are coalesced: one frame per listener per 250 ms, net changes only, across two gateways', async (t) => {
  const cluster = await startCluster(t, { gateways: 2 });
  const gateways = cluster.gateways;
  const env = await cluster.createEnvironment();
  // the churn measures coalescing, not the per-user socket-open rate (tested in limits.edge)
  const limits = { userSocketOpensPerSecond: 10_000 };
  assert.equal(
    (await request(gateways[0]!.controlUrl, 'PUT', '/v1/config', { token: env.secretKey, body: { limits, channels: { access: 'open', joinLeave: true } } }))
      .status,
    200,
  );
  const gw = (i: number) => gateways[i % 2]!;
  const token = (userId: string) => mintToken(gateways[0]!.controlUrl, env.secretKey, userId);

  // 16 listeners, half on each gateway; two of them on /v1/connect (the multiplexed socket)
  const listeners: Listener[] = [];
  for (let i = 0; i < 16; i++) {
    const name = `listener${i}`;
    const tok = await token(name);
    if (i < 2) {
      const socket = openSocket(gw(i).realtimeUrl, `/v1/connect?token=${tok}`);
      const listener = listen(name, socket);
      await socket.waitFor(`${name} connected`, (f) => f.op === 'connected');
      socket.send({ op: 'subscribe', ref: 1, channelId: CHANNEL });
      await socket.waitFor(`${name} subscribed`, (f) => f.op === 'subscribed');
      listeners.push(listener);
    } else {
      const socket = openSocket(gw(i).realtimeUrl, `/v1/channels/${CHANNEL}?token=${tok}`);
      const listener = listen(name, socket);
      await socket.waitFor(`${name} ready`, (f) => f.op === 'ready');
      listeners.push(listener);
    }
  }

  // a burst: 30 users arrive at once, on both gateways; each listener gets them in a few frames
  const burstUsers = Array.from({ length: 30 }, (_, i) => `guest${i}`);
  const burstTokens = await Promise.all(burstUsers.map(token));
  const burstStart = Date.now();
  const guests = burstUsers.map((_userId, i) => openSocket(gw(i).realtimeUrl, `/v1/channels/${CHANNEL}?token=${burstTokens[i]}`));
  await Promise.all(guests.map((s, i) => s.waitFor(`${burstUsers[i]} ready`, (f) => f.op === 'ready')));
  for (const listener of listeners) {
    await eventually(`${listener.name} sees the whole burst`, async () => burstUsers.every((u) => listener.online.has(u)));
  }
  for (const listener of listeners) {
    const { count, bound } = framesSince(listener, burstStart);
    assert.ok(count <= bound, `${listener.name}: ${count} presence frames for a burst of 30 arrivals, at most ${bound} allowed`);
  }

  // churn: one user opens and closes channel sockets in a loop, on both gateways, four at a time
  const churnToken = await token('churner');
  const churnStart = Date.now();
  let cycles = 0;
  let refused = 0;
  const churnLoop = async (lane: number) => {
    for (let i = 0; cycles < 300 && Date.now() - churnStart < 8_000; i++) {
      cycles++;
      const socket = openSocket(gw(lane + i).realtimeUrl, `/v1/channels/${CHANNEL}?token=${churnToken}`);
      try {
        await socket.waitFor('churner ready', (f) => f.op === 'ready');
      } catch {
        refused++; // a refused open (a rate limit) is churn too
      }
      await socket.close();
    }
  };
  await Promise.all([0, 1, 2, 3].map(churnLoop));
  assert.ok(cycles - refused >= 50, `the churner opened ${cycles - refused} sockets`);

  // settled: the roster has the churner offline; a marker arriving after that reaches everyone
  const control = client(gateways[0]!.controlUrl, env.secretKey);
  await eventually('churner offline in the roster', async () => {
    const res = await control.get(`/v1/channels/${CHANNEL}/members`);
    return res.status === 200 && !res.body.members.some((m: any) => m.userId === 'churner');
  });
  const marker = openSocket(gw(1).realtimeUrl, `/v1/channels/${CHANNEL}?token=${await token('marker')}`);
  await marker.waitFor('marker ready', (f) => f.op === 'ready');
  for (const listener of listeners) {
    await eventually(
      `${listener.name} sees the marker and the churner gone`,
      async () => listener.online.has('marker') && !listener.online.has('churner'),
    ).catch((error) => {
      throw new Error(`${error.message}; frames since the churn: ${JSON.stringify(listener.frames.filter((f) => f.at >= churnStart))}`);
    });
  }

  t.diagnostic(
    `${cycles} churn cycles (${refused} refused); presence frames per listener since: ${listeners.map((l) => framesSince(l, churnStart).count).join(' ')}`,
  );
  for (const listener of listeners) {
    const { count, bound } = framesSince(listener, churnStart);
    assert.ok(count <= bound, `${listener.name}: ${count} presence frames during ${cycles} churn cycles, at most ${bound} allowed`);
    for (const userId of burstUsers) {
      assert.ok(listener.online.has(userId), `${listener.name}: ${userId} stayed online`);
      assert.ok(!listener.everLeft.has(userId), `${listener.name}: ${userId} never shown leaving`);
    }
    assert.ok(!listener.online.has('churner'), `${listener.name}: the churner is offline`);
  }
  const roster = await control.get(`/v1/channels/${CHANNEL}/members`);
  const onlineNow = roster.body.members.filter((m: any) => m.online).map((m: any) => m.userId);
  for (const userId of [...burstUsers, 'marker']) assert.ok(onlineNow.includes(userId), `${userId} online in the roster`);

  // the frame: {op, joined, left} (plus channelId first on /v1/connect), each user at most once
  for (const listener of listeners) {
    for (const { frame } of listener.frames) {
      const keys = Object.keys(frame);
      assert.deepEqual(
        keys,
        listener.name === 'listener0' || listener.name === 'listener1' ? ['channelId', 'op', 'joined', 'left'] : ['op', 'joined', 'left'],
        JSON.stringify(frame),
      );
      const users = [...frame.joined, ...frame.left];
      assert.equal(new Set(users).size, users.length, JSON.stringify(frame));
    }
  }

  // a leave reaches everyone too, after the others stay
  await guests[0]!.close();
  for (const listener of listeners) {
    await eventually(`${listener.name} sees guest0 leave`, async () => !listener.online.has('guest0'));
  }
  await Promise.all([marker, ...guests, ...listeners.map((l) => l.socket)].map((s) => s.close()));
});
