import type { TestContext } from 'node:test';
import WebSocket from 'ws';
import { createClient, type Client, type ClientOptions, type ConnectionState, type Message, type StateChange } from '@rtm/client';

const socketsOf = new WeakMap<Client, WebSocket[]>();

/** An SDK client over `ws` (Node 20), closed when the test ends; its sockets are tracked for dropConnection. */
export function sdkClient(t: TestContext, url: string, getToken: ClientOptions['getToken'], options: Partial<ClientOptions> = {}): Client {
  const sockets: WebSocket[] = [];
  const Base = (options.WebSocket ?? WebSocket) as typeof WebSocket;
  class TrackedWebSocket extends Base {
    constructor(address: string) {
      super(address);
      sockets.push(this);
    }
  }
  const client = createClient({ url, getToken, ...options, WebSocket: TrackedWebSocket });
  socketsOf.set(client, sockets);
  t.after(() => client.close());
  return client;
}

/** Resets the client's current connection (as a network failure would: no close frame). */
export function dropConnection(client: Client): void {
  const socket = socketsOf.get(client)?.at(-1);
  if (!socket) throw new Error('the client has no socket');
  socket.terminate();
}

/** Resolves with the next `state` event into `state` (optionally one that matches `match`). */
export function nextState(
  client: Client,
  state: ConnectionState,
  limitMs = 20_000,
  match: (change: StateChange) => boolean = () => true,
): Promise<StateChange> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no state ${state} within ${limitMs} ms (now ${client.state})`));
    }, limitMs);
    const off = client.on('state', (next, change) => {
      if (next !== state || !match(change)) return;
      clearTimeout(timer);
      off();
      resolve(change);
    });
  });
}

/** Resolves once the client is connected (at once if it is). */
export async function connected(client: Client, limitMs = 20_000): Promise<void> {
  if (client.state !== 'connected') await nextState(client, 'connected', limitMs);
}

/** Polls until `probe()` is true, naming `what` on time-out. */
export async function until(what: string, probe: () => boolean, limitMs = 20_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`${what}: not true after ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Seqs of persisted messages, in delivery order. */
export const seqsOf = (messages: Message[]) => messages.filter((m) => !m.ephemeral).map((m) => m.seq);

/** Asserts that `seqs` strictly increase (each message delivered once, in order). */
export function strictlyIncreasing(seqs: number[]): boolean {
  return seqs.every((seq, i) => i === 0 || seq > seqs[i - 1]!);
}
