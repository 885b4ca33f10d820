import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { client, mintToken } from './helpers/http.ts';
import { eventually } from './helpers/eventually.ts';
import { openSocket, type TestSocket } from './helpers/ws.ts';

const CHANNEL = 'lobby';

/** The (userId, online) pairs of a presence frame. */
function changesOf(frame: any): [string, boolean][] {
  return [...(frame.joined ?? []).map((u: string) => [u, true]), ...(frame.left ?? []).map((u: string) => [u, false])] as [string, boolean][];
}

/** Every presence frame a socket receives, in order. */
function presenceFrames(socket: TestSocket): any[] {
  const frames: any[] = [];
  socket.ws.on('message', (data) => {
    try {
      const frame = JSON.parse(String(data));
      if (frame?.op === 'presence') frames.push(frame);
    } catch {
      // not JSON: not a presence frame
    }
  });
  return frames;
}

/** Who a client believes is online: a roster it read, with the presence frames from `from` on applied on top. */
function viewOf(roster: Set<string>, frames: any[], from: number): Set<string> {
  const view = new Set(roster);
  for (const frame of frames.slice(from)) {
    for (const [userId, online] of changesOf(frame)) {
      if (online) view.add(userId);
      else view.delete(userId);
    }
  }
  return view;
}

test('presence - a roster read while a user reconnects, plus the frames after it, shows the user online', async (t) => {
  const cluster = await startCluster(t, { gateways: 1 });
  const gw = cluster.gateways[0]!;
  const env = await cluster.createEnvironment();
  const control = client(gw.controlUrl, env.secretKey);
  // presence frames are opt-in (channels.joinLeave)
  assert.equal((await control.put('/v1/config', { channels: { access: 'open', joinLeave: true } })).status, 200);
  const rosterOnline = async () => {
    const res = await control.get(`/v1/channels/${CHANNEL}/members`);
    assert.equal(res.status, 200);
    return new Set<string>(res.body.members.filter((m: any) => m.online).map((m: any) => m.userId));
  };

  const listener = openSocket(gw.realtimeUrl, `/v1/channels/${CHANNEL}?token=${await mintToken(gw.controlUrl, env.secretKey, 'listener')}`);
  const frames = presenceFrames(listener);
  await listener.waitFor('listener ready', (f) => f.op === 'ready');
  const roamerToken = await mintToken(gw.controlUrl, env.secretKey, 'roamer');
  let roamer = openSocket(gw.realtimeUrl, `/v1/channels/${CHANNEL}?token=${roamerToken}`);
  await roamer.waitFor('roamer ready', (f) => f.op === 'ready');
  await eventually('the listener sees the roamer arrive', async () => viewOf(new Set(), frames, 0).has('roamer'));

  // The roamer's socket drops and it reconnects at once, as a client does. A client that reads the
  // roster in between (as the SDK's users do after their own resubscribe) sees it offline; the
  // frames from then on must bring it back, even though the channel's listeners had it online
  // before and its leave and return fall into one presence window.
  for (let round = 1; round <= 3; round++) {
    await roamer.close();
    let roster: Set<string>;
    let from: number;
    do {
      from = frames.length;
      roster = await rosterOnline();
    } while (roster.has('roamer'));
    roamer = openSocket(gw.realtimeUrl, `/v1/channels/${CHANNEL}?token=${roamerToken}`);
    await roamer.waitFor('roamer ready again', (f) => f.op === 'ready');
    await eventually('the roster has the roamer back', async () => (await rosterOnline()).has('roamer'));
    await eventually(`round ${round}: roster read in the gap + later frames show the roamer online`, async () =>
      viewOf(roster, frames, from).has('roamer'),
    ).catch((error: Error) => {
      throw new Error(`${error.message}; frames since the roster read: ${JSON.stringify(frames.slice(from))}`);
    });
    // and a client that followed the frames all along ends with the roamer online too
    assert.ok(viewOf(new Set(), frames, 0).has('roamer'), `round ${round}: frames alone end with the roamer online`);
  }
  await Promise.all([listener.close(), roamer.close()]);
});
