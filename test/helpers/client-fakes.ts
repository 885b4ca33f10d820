import { createClient, type Client, type ClientOptions, type Clock } from '@rtm/client';

/** A clock that moves only when told: timers run in due order as `advance` passes them. */
export class FakeClock implements Clock {
  #now = 1_700_000_000_000;
  #next = 1;
  readonly #timers = new Map<number, { at: number; callback: () => void }>();

  now(): number {
    return this.#now;
  }

  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.#next++;
    this.#timers.set(id, { at: this.#now + Math.max(0, ms), callback });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.#timers.delete(handle as number);
  }

  /** Milliseconds until the next timer, or undefined when none is pending. */
  nextIn(): number | undefined {
    let at: number | undefined;
    for (const timer of this.#timers.values()) if (at === undefined || timer.at < at) at = timer.at;
    return at === undefined ? undefined : at - this.#now;
  }

  /** Moves time forward by `ms`, running every timer that falls due (and the promises they start). */
  async advance(ms: number): Promise<void> {
    const end = this.#now + ms;
    for (;;) {
      let due: [number, { at: number; callback: () => void }] | undefined;
      for (const entry of this.#timers) if (entry[1].at <= end && (!due || entry[1].at < due[1].at)) due = entry;
      if (!due) break;
      this.#timers.delete(due[0]);
      this.#now = due[1].at;
      due[1].callback();
      await settle();
    }
    this.#now = end;
    await settle();
  }
}

/** Lets pending promise callbacks run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** A WebSocket whose server side the test plays. */
export class FakeSocket {
  static instances: FakeSocket[] = [];
  readonly url: string;
  readyState = 0;
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number; reason: string }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  /** Frames the client sent, parsed. */
  readonly sent: any[] = [];
  closedByClient: { code?: number; reason?: string } | undefined;

  constructor(url: string) {
    this.url = url;
    FakeSocket.instances.push(this);
  }

  /** Frames sent while the socket was not open: a browser drops them, logging a console error. */
  readonly sentWhileClosed: string[] = [];

  send(data: string): void {
    // as browsers do: no exception, the frame is lost (and the console says so)
    if (this.readyState !== 1) {
      this.sentWhileClosed.push(data);
      return;
    }
    this.sent.push(JSON.parse(data));
  }

  /** The close handshake started (CLOSING): the close event has not arrived yet. */
  closing(): void {
    this.readyState = 2;
  }

  close(code?: number, reason?: string): void {
    this.closedByClient = { code, reason };
    this.readyState = 3;
  }

  // ---- the server's side ----

  /** Opens and sends `connected`. */
  accept(frame: Partial<{ connectionId: string; userId: string; expiresAt: string }> = {}): void {
    this.readyState = 1;
    this.onopen?.({});
    this.push({
      op: 'connected',
      connectionId: frame.connectionId ?? `conn_${FakeSocket.instances.length}`,
      userId: frame.userId ?? 'alice',
      expiresAt: frame.expiresAt ?? new Date(Date.UTC(2100, 0, 1)).toISOString(),
    });
  }

  push(frame: unknown): void {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }

  /** The server closes (or the network drops, with 1006). */
  drop(code = 1006, reason = ''): void {
    this.readyState = 3;
    this.onclose?.({ code, reason });
  }

  /** Frames sent with this op. */
  ops(op: string): any[] {
    return this.sent.filter((frame) => frame.op === op);
  }

  /** The token in the URL. */
  get token(): string | null {
    return new URL(this.url).searchParams.get('token');
  }
}

export const lastSocket = (): FakeSocket => {
  const socket = FakeSocket.instances.at(-1);
  if (!socket) throw new Error('no socket was opened');
  return socket;
};

/**
 * A client on a fake clock and fake sockets; getToken hands out tok-1, tok-2, … and counts calls.
 * It stays on WebSockets (`transports: ['websocket']`) unless told otherwise: these tests drop
 * sockets on purpose, which would otherwise move it to Server-Sent Events.
 */
export function fakeClient(options: Partial<ClientOptions> = {}): { client: Client; clock: FakeClock; tokens: string[] } {
  FakeSocket.instances = [];
  const clock = new FakeClock();
  const tokens: string[] = [];
  const client = createClient({
    url: 'http://edge.test',
    getToken: async () => {
      const token = `tok-${tokens.length + 1}`;
      tokens.push(token);
      return token;
    },
    WebSocket: FakeSocket,
    clock,
    random: () => 0.5,
    transports: ['websocket'],
    ...options,
  });
  return { client, clock, tokens };
}

/** A message frame of `channelId` with `seq`. */
export function messageFrame(channelId: string, seq: number, extra: Record<string, unknown> = {}) {
  return {
    channelId,
    id: `msg_${channelId}_${seq}`,
    seq,
    type: 'message',
    kind: 'user',
    content: { n: seq },
    sender: { id: 'bob', anon: false },
    timestamp: 1,
    retracted: false,
    ephemeral: false,
    ...extra,
  };
}
