/**
 * A fetch whose server side the test plays, for the SDK's `sse` transport: event streams
 * (`GET /v1/events`) the test writes frames into, and HTTP publishes and retractions it answers.
 */
import type { FetchLike } from '@rtm/client';

type Init = Parameters<FetchLike>[1];
type Answer = Awaited<ReturnType<FetchLike>>;

/** A streaming body: `write` hands the reader a chunk, `end` ends it, an abort of the request rejects the read. */
export class FakeBody {
  readonly #chunks: Uint8Array[] = [];
  #waiting: { resolve: (r: { done: boolean; value?: Uint8Array }) => void; reject: (e: unknown) => void } | undefined;
  #ended = false;
  #error: unknown;
  cancelled = false;

  write(text: string | Uint8Array): void {
    const bytes = typeof text === 'string' ? new TextEncoder().encode(text) : text;
    if (this.#waiting) {
      const waiting = this.#waiting;
      this.#waiting = undefined;
      waiting.resolve({ done: false, value: bytes });
    } else this.#chunks.push(bytes);
  }

  end(): void {
    this.#ended = true;
    this.#waiting?.resolve({ done: true });
    this.#waiting = undefined;
  }

  fail(error: unknown): void {
    this.#error = error;
    this.#waiting?.reject(error);
    this.#waiting = undefined;
  }

  getReader() {
    return {
      read: (): Promise<{ done: boolean; value?: Uint8Array }> => {
        const chunk = this.#chunks.shift();
        if (chunk) return Promise.resolve({ done: false, value: chunk });
        if (this.#error !== undefined) return Promise.reject(this.#error);
        if (this.#ended) return Promise.resolve({ done: true });
        return new Promise((resolve, reject) => (this.#waiting = { resolve, reject }));
      },
      cancel: async () => {
        this.cancelled = true;
      },
    };
  }
}

/** One request the client made. */
export class FakeRequest {
  readonly url: URL;
  readonly init: Init;
  readonly body = new FakeBody();
  aborted = false;
  /** Answered as an event stream. */
  opened = false;
  #answer!: (answer: Answer) => void;
  #refuse!: (error: unknown) => void;
  readonly answered: Promise<Answer>;

  constructor(url: string, init: Init) {
    this.url = new URL(url);
    this.init = init;
    this.answered = new Promise<Answer>((resolve, reject) => {
      this.#answer = resolve;
      this.#refuse = reject;
    });
    const signal = init.signal as { aborted: boolean; addEventListener(name: string, fn: () => void): void } | undefined;
    signal?.addEventListener('abort', () => {
      this.aborted = true;
      const error = new Error('This operation was aborted');
      error.name = 'AbortError';
      this.#refuse(error);
      this.body.fail(error);
    });
  }

  get method(): string {
    return this.init.method;
  }

  get path(): string {
    return this.url.pathname;
  }

  /** `channels` of an event stream request. */
  get channels(): string | null {
    return this.url.searchParams.get('channels');
  }

  get token(): string | undefined {
    return this.init.headers.authorization?.replace(/^Bearer /, '');
  }

  json(): any {
    return this.init.body === undefined ? undefined : JSON.parse(this.init.body);
  }

  /** Answers an event stream: 200 text/event-stream; then `frame`, `comment` and `end` write to it. */
  open(): this {
    this.opened = true;
    this.#answer({ status: 200, headers: headers({ 'content-type': 'text/event-stream' }), text: async () => '', body: this.body });
    return this;
  }

  /** One event carrying `frame`. */
  frame(frame: unknown, id = '1'): this {
    this.body.write(`id: ${id}\ndata: ${JSON.stringify(frame)}\n\n`);
    return this;
  }

  comment(text = 'ping'): this {
    this.body.write(`: ${text}\n\n`);
    return this;
  }

  /** Answers with a JSON body. */
  reply(status: number, body: unknown, extra: Record<string, string> = {}): void {
    const text = JSON.stringify(body);
    this.#answer({ status, headers: headers({ 'content-type': 'application/json', ...extra }), text: async () => text });
  }

  /** No answer at all (the network failed). */
  fail(message = 'fetch failed'): void {
    this.#refuse(new TypeError(message));
  }
}

function headers(values: Record<string, string>): { get(name: string): string | null } {
  return { get: (name) => values[name.toLowerCase()] ?? null };
}

/** The fetch, and every request it was asked for. */
export class FakeFetch {
  readonly requests: FakeRequest[] = [];
  /** How `GET /v1/me` is answered (at once); undefined: the test answers it. */
  me: ((request: FakeRequest) => void) | undefined = (request) =>
    request.reply(200, {
      userId: request.token === 'bad' ? 'nobody' : 'alice',
      environmentId: 'env',
      anon: false,
      expiresAt: new Date(Date.UTC(2100, 0, 1)).toISOString(),
    });

  readonly fetch: FetchLike = (url, init) => {
    const request = new FakeRequest(url, init);
    this.requests.push(request);
    if (request.path === '/v1/me') this.me?.(request);
    return request.answered;
  };

  /** `GET /v1/me` requests, oldest first. */
  get mes(): FakeRequest[] {
    return this.requests.filter((r) => r.path === '/v1/me');
  }

  /** Event stream requests, oldest first. */
  get streams(): FakeRequest[] {
    return this.requests.filter((r) => r.path === '/v1/events');
  }

  /** Event stream requests not aborted. */
  get openStreams(): FakeRequest[] {
    return this.streams.filter((r) => !r.aborted);
  }

  lastStream(): FakeRequest {
    const stream = this.streams.at(-1);
    if (!stream) throw new Error('no event stream was requested');
    return stream;
  }

  /** Moves the clock `ms` on, the server's `: ping` every 15 s on each open stream keeping it alive. */
  async advanceAlive(clock: { advance(ms: number): Promise<void> }, ms: number): Promise<void> {
    for (let left = ms; left > 0; left -= 15_000) {
      await clock.advance(Math.min(15_000, left));
      for (const stream of this.openStreams) if (stream.opened) stream.comment();
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  /** Publish and retract requests, oldest first. */
  get messages(): FakeRequest[] {
    return this.requests.filter((r) => r.path.includes('/messages'));
  }
}

/** A WebSocket constructor that always throws, as where WebSockets are blocked. */
export class ThrowingSocket {
  static made = 0;
  constructor() {
    ThrowingSocket.made += 1;
    throw new Error('WebSockets are blocked here');
  }
}

/** The `connected` frame of an event stream. */
export function connectedFrame(extra: Record<string, unknown> = {}) {
  return { op: 'connected', connectionId: 'sse_1', userId: 'alice', expiresAt: new Date(Date.UTC(2100, 0, 1)).toISOString(), ...extra };
}
