/**
 * An end user's app outside this repository, on the packed @rtm/client only (and `ws`, its
 * optional peer on Node 20): it connects with a token its backend minted, subscribes from the
 * start of the channel (the backend's message is replayed, then live), publishes, receives its
 * own message and reads the history. test/packages.out-of-repo.test.ts type-checks it (tsc, the
 * package's own .d.ts) and runs the output under plain Node; it prints one JSON line.
 *
 * Environment: RTM_REALTIME_URL, RTM_TOKEN, RTM_CHANNEL.
 */
import WebSocket from 'ws';
import { createClient, RtmError, type ConnectionState, type Message, type PublishResult } from '@rtm/client';

const client = createClient({ url: process.env.RTM_REALTIME_URL!, getToken: () => process.env.RTM_TOKEN!, WebSocket });
const states: ConnectionState[] = [];
client.on('state', (state) => states.push(state));

const channel = client.channel(process.env.RTM_CHANNEL!);
const received: Message[] = [];
const subscription = channel.subscribe((message) => received.push(message), { since: 0 });
const { lastSeq } = await subscription.ready;
const ack: PublishResult = await channel.publish({ text: 'from a client outside the repository' });

const deadline = Date.now() + 10_000;
while (!received.some((message) => message.seq === ack.seq)) {
  if (Date.now() > deadline) throw new Error(`message ${ack.seq} not received in time`);
  await new Promise((resolve) => setTimeout(resolve, 20));
}
const history: number[] = [];
for await (const message of channel.history({ limit: 10 })) history.push(message.seq);

let refusal: string | undefined;
try {
  client.channel('not a channel!');
} catch (error) {
  if (error instanceof RtmError) refusal = error.code;
}

client.close();
console.log(
  JSON.stringify({
    states,
    lastSeq,
    ack: { id: ack.id, seq: ack.seq },
    received: received.map((message) => ({ seq: message.seq, sender: message.sender.id, content: message.content })),
    history,
    refusal,
  }),
);
