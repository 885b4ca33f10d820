import { keepFrameText } from './delta.ts';
import { Timer, type Clock } from './clock.ts';
import { RtmError } from './errors.ts';
import type { PacedSender } from './paced-sender.ts';
import type { WebSocketLike } from './types.ts';

/** How the client reaches the realtime edge: one WebSocket (`/v1/connect`), or Server-Sent Events plus HTTP. */
export type TransportName = 'websocket' | 'sse';

/** WebSockets that close before `connected`, in a row, before the client falls back to SSE. */
export const WEBSOCKET_FAILURES_BEFORE_SSE = 2;
/** A probing WebSocket must say `connected` within this time. */
const PROBE_HANDSHAKE_MS = 15_000;

/** The `transports` option: `['websocket', 'sse']` (the default), `['websocket']` or `['sse']`. */
export function transportsOf(value: unknown): TransportName[] {
  if (value === undefined) return ['websocket', 'sse'];
  const ok =
    Array.isArray(value) &&
    value.length > 0 &&
    value.length <= 2 &&
    value.every((name) => name === 'websocket' || name === 'sse') &&
    new Set(value).size === value.length &&
    (value.length === 1 || value[0] === 'websocket');
  if (!ok) throw new RtmError('invalid_request', "transports must be ['websocket', 'sse'], ['websocket'] or ['sse']");
  return [...(value as TransportName[])];
}

/**
 * Which transport the client uses. It starts on a WebSocket when it may and has one, and moves
 * to SSE when a WebSocket cannot be made at all, or WEBSOCKET_FAILURES_BEFORE_SSE in a row close
 * before `connected` without the server having said why: a close code of 3000 or more comes from
 * the server, so WebSockets do get through and the client stays on them. A WebSocket that gets
 * `connected` (again) puts the client back on WebSockets.
 */
export class TransportChoice {
  readonly #allowed: readonly TransportName[];
  readonly #haveWebSocket: boolean;
  #current: TransportName;
  #failures = 0;

  constructor(allowed: readonly TransportName[], haveWebSocket: boolean) {
    this.#allowed = allowed;
    this.#haveWebSocket = haveWebSocket;
    this.#current = allowed[0] === 'websocket' && (haveWebSocket || !allowed.includes('sse')) ? 'websocket' : 'sse';
  }

  get current(): TransportName {
    return this.#current;
  }

  /** On SSE, with WebSockets allowed and a constructor to make them: try them again now and then. */
  get probing(): boolean {
    return this.#current === 'sse' && this.#allowed.includes('websocket') && this.#haveWebSocket;
  }

  /** A WebSocket could not be made (its constructor threw). True: the client is on SSE now. */
  webSocketUnusable(): boolean {
    return this.#fallBack();
  }

  /** A WebSocket closed before `connected` with `code`. True: the client is on SSE now. */
  webSocketClosedEarly(code: number): boolean {
    if (code >= 3000) {
      this.#failures = 0;
      return false;
    }
    this.#failures += 1;
    return this.#failures >= WEBSOCKET_FAILURES_BEFORE_SSE && this.#fallBack();
  }

  /** A WebSocket said `connected`. */
  webSocketConnected(): void {
    this.#current = 'websocket';
    this.#failures = 0;
  }

  #fallBack(): boolean {
    if (this.#current !== 'websocket' || !this.#allowed.includes('sse')) return false;
    this.#current = 'sse';
    this.#failures = 0;
    return true;
  }
}

/** What a probe needs from the client. */
export interface ProbeHost {
  /** A WebSocket to /v1/connect with the user's token, or undefined when none can be made now. */
  open(): Promise<WebSocketLike | undefined>;
  /** The probe's socket said `connected`: it is the client's from now on (its handlers are replaced). */
  adopt(socket: WebSocketLike, frame: Record<string, unknown>): void;
}

/**
 * While the client is on SSE: every `intervalMs` (`reconnect.webSocketRetryMs`, 60 s) a WebSocket
 * is opened beside the event streams. When it says `connected` the client moves to it (make before
 * break: the streams end only then); when it fails, the next try is `intervalMs` later.
 */
export class WebSocketProbe {
  readonly #host: ProbeHost;
  readonly #intervalMs: number;
  readonly #timer: Timer;
  readonly #handshake: Timer;
  #socket: WebSocketLike | undefined;
  /** Bumped by stop(): a try started before is abandoned. */
  #generation = 0;

  constructor(clock: Clock, intervalMs: number, host: ProbeHost) {
    this.#host = host;
    this.#intervalMs = intervalMs;
    this.#timer = new Timer(clock);
    this.#handshake = new Timer(clock);
  }

  /** Schedules the next try, unless one is scheduled or under way. */
  start(): void {
    if (this.#timer.pending || this.#socket) return;
    this.#timer.set(this.#intervalMs, () => void this.#try());
  }

  stop(): void {
    this.#generation += 1;
    this.#timer.clear();
    this.#handshake.clear();
    const socket = this.#socket;
    this.#socket = undefined;
    if (socket) closeSocket(socket, 'probe stopped');
  }

  async #try(): Promise<void> {
    const generation = ++this.#generation;
    let socket: WebSocketLike | undefined;
    try {
      socket = await this.#host.open();
    } catch {
      socket = undefined;
    }
    if (generation !== this.#generation) {
      if (socket) closeSocket(socket, 'probe stopped');
      return;
    }
    if (!socket) return this.start();
    this.#socket = socket;
    const failed = () => {
      if (generation !== this.#generation || this.#socket !== socket) return;
      this.#handshake.clear();
      this.#socket = undefined;
      closeSocket(socket, 'probe failed');
      this.start();
    };
    socket.onopen = null;
    socket.onerror = () => {};
    socket.onclose = failed;
    socket.onmessage = (event: { data: unknown }) => {
      const frame = parseFrame(event.data);
      if (frame?.op !== 'connected') return failed();
      if (generation !== this.#generation || this.#socket !== socket) return;
      this.#handshake.clear();
      this.#socket = undefined;
      this.#host.adopt(socket, frame);
    };
    this.#handshake.set(PROBE_HANDSHAKE_MS, failed);
  }
}

/** A socket frame's JSON object, or undefined. */
export function parseFrame(data: unknown): Record<string, unknown> | undefined {
  try {
    const text = typeof data === 'string' ? data : new TextDecoder().decode(data as ArrayBuffer);
    const frame: unknown = JSON.parse(text);
    if (frame === null || typeof frame !== 'object' || Array.isArray(frame)) return undefined;
    // a message's content as the bytes the server sent: a delta subscription's base (delta.ts)
    keepFrameText(frame as Record<string, unknown>, text);
    return frame as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** Closes a socket that may already be closing. */
export function closeSocket(socket: WebSocketLike, reason: string): void {
  try {
    socket.close(1000, reason);
  } catch {
    // already closing
  }
}

/** What the client does with a connection, whichever transport it is on. */
export interface Link {
  readonly transport: TransportName;
  send(frame: Record<string, unknown>): void;
  /** Ends it; nothing more is heard from it. */
  close(): void;
}

export interface LinkHandlers {
  /** A frame from the server (`undefined`: one that is not a JSON object). */
  frame(frame: Record<string, unknown> | undefined): void;
  closed(code: number, reason: string, retryAfter?: number): void;
}

/** The connection on a WebSocket: frames out through the pacer, frames in parsed. */
export class SocketLink implements Link {
  readonly transport = 'websocket' as const;
  readonly #socket: WebSocketLike;
  readonly #sender: PacedSender;
  #closed = false;

  constructor(socket: WebSocketLike, sender: PacedSender, handlers: LinkHandlers) {
    this.#socket = socket;
    this.#sender = sender;
    sender.attach(socket);
    socket.onmessage = (event: { data: unknown }) => {
      if (!this.#closed) handlers.frame(parseFrame(event.data));
    };
    socket.onclose = (event: { code?: number; reason?: string }) => {
      if (this.#closed) return;
      this.#closed = true;
      this.#sender.detach(socket);
      handlers.closed(event?.code ?? 1006, event?.reason ?? '');
    };
    // a failed socket also closes; the close event carries what there is to know
    socket.onerror = () => {};
  }

  send(frame: Record<string, unknown>): void {
    if (!this.#closed) this.#sender.send(JSON.stringify(frame));
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#sender.detach(this.#socket);
    closeSocket(this.#socket, 'client closed');
  }
}
