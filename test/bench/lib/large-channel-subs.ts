/**
 * The large-channel benchmark's subscribers (test/bench/large-channel.bench.ts): one
 * `/v1/connect` connection each, opened once fewer than OPEN_WINDOW handshakes are in flight,
 * subscribing to the one channel as soon as it is `connected` and retrying as the client SDK does
 * (libs/client); every close, error frame and transport error counted by code.
 */
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { backoffDelay } from '../../../libs/client/src/backoff.ts';
import { CHANNEL, CONNECTIONS, HANDSHAKE_TIMEOUT_MS, OPEN_WINDOW, RETRY_INITIAL_MS, RETRY_MAX_MS } from './large-channel-options.ts';

/** Every close, error frame and transport error of the storm's connections, by code. */
export const outcomes = new Map<string, number>();
const count = (key: string) => outcomes.set(key, (outcomes.get(key) ?? 0) + 1);

/** A delivery of a message with `seq` (and the fan-out's `n` in its content) at `at` (performance.now()). */
export type Delivery = (sub: Sub, seq: number, n: number | undefined, at: number) => void;

/** The storm's counters, and what the benchmark is told of (every subscribed, each delivery). */
export const storm = {
  /** `presence` frames the subscribers received, and their bytes. */
  presence: { frames: 0, bytes: 0 },
  subscribedNow: 0,
  allSubscribed: undefined as (() => void) | undefined,
  /** Handshakes in flight (socket created, no `connected` or close yet). */
  opening: 0,
  onDelivery: undefined as Delivery | undefined,
  /** Set at the end: a closed connection is not opened again. */
  stopping: false,
};
/** The connections waiting for a place among the handshakes in flight. */
export const openQueue: Sub[] = [];

/** The op of a frame, from its first bytes (message frames have none): no parse of presence frames. */
export function opOf(data: Buffer): string | undefined {
  const head = data.toString('latin1', 0, Math.min(data.length, 160));
  const at = head.indexOf('"op":"');
  if (at < 0) return undefined;
  return head.slice(at + 6, head.indexOf('"', at + 6));
}

// ---------------------------------------------------------------- one subscriber

export class Sub {
  readonly url: string;
  ws: WebSocket | undefined;
  state: 'idle' | 'opening' | 'connected' | 'subscribing' | 'subscribed' | 'failed' = 'idle';
  private attempts = 0;
  private refusals = 0;
  private retryAfterHint: number | undefined;
  private ref = 0;
  private handshakeTimer: NodeJS.Timeout | undefined;
  private countedOpening = false;
  /** The highest seq seen (for `since` on a resubscribe). */
  lastSeq = 0;
  /** Seqs of the fan-out's messages as they arrived, in order. */
  readonly seqs: number[] = [];

  constructor(url: string) {
    this.url = url;
  }

  /** Queues an open: it starts once fewer than OPEN_WINDOW handshakes are in flight. */
  open(): void {
    openQueue.push(this);
    pump();
  }

  start(): void {
    this.state = 'opening';
    storm.opening++;
    this.countedOpening = true;
    const ws = new WebSocket(this.url, { perMessageDeflate: false });
    this.ws = ws;
    this.handshakeTimer = setTimeout(() => {
      count('client: no `connected` within 15 s');
      ws.terminate();
    }, HANDSHAKE_TIMEOUT_MS);
    ws.on('message', (data: Buffer, isBinary) => {
      if (ws !== this.ws || isBinary) return;
      this.onFrame(data);
    });
    ws.on('error', (error: Error & { code?: string }) => count(`transport error ${error.code ?? error.message}`));
    ws.on('close', (code, reason) => {
      if (ws === this.ws) this.onClose(code, reason.toString('utf8'));
    });
  }

  private handshakeDone(): void {
    clearTimeout(this.handshakeTimer);
    if (this.countedOpening) {
      this.countedOpening = false;
      storm.opening--;
      pump();
    }
  }

  private onFrame(data: Buffer): void {
    const op = opOf(data);
    if (op === undefined) {
      const at = performance.now();
      const frame = JSON.parse(data.toString('utf8')) as { seq?: number; content?: { n?: unknown } };
      if (typeof frame.seq === 'number') {
        this.lastSeq = Math.max(this.lastSeq, frame.seq);
        const n = frame.content?.n;
        storm.onDelivery?.(this, frame.seq, typeof n === 'number' ? n : undefined, at);
      }
      return;
    }
    if (op === 'presence') {
      storm.presence.frames++;
      storm.presence.bytes += data.length;
      return;
    }
    const frame = JSON.parse(data.toString('utf8')) as { op: string; ref?: unknown; code?: string; retryAfter?: number };
    switch (op) {
      case 'connected':
        this.handshakeDone();
        this.state = 'connected';
        this.subscribe();
        return;
      case 'subscribed':
        this.state = 'subscribed';
        this.attempts = 0;
        this.refusals = 0;
        if (++storm.subscribedNow === CONNECTIONS) storm.allSubscribed?.();
        return;
      case 'unsubscribed':
        if (frame.ref !== undefined) return;
        count(`unsubscribed ${frame.code ?? '(no code)'}`);
        if (this.state === 'subscribed') storm.subscribedNow--;
        if (frame.code === 'banned' || frame.code === 'forbidden') this.state = 'failed';
        else this.subscribe();
        return;
      case 'error': {
        count(`error frame ${frame.code}`);
        if (typeof frame.retryAfter === 'number') this.retryAfterHint = frame.retryAfter;
        if (frame.ref === undefined || this.state !== 'subscribing') return;
        if (frame.code === 'rate_limited') {
          this.state = 'connected';
          setTimeout(() => this.state === 'connected' && this.subscribe(), (frame.retryAfter ?? 1) * 1000);
        } else if (frame.code === 'unavailable') {
          this.state = 'connected';
          const delay = Math.max((frame.retryAfter ?? 0) * 1000, backoffDelay(this.refusals++, RETRY_INITIAL_MS, RETRY_MAX_MS));
          setTimeout(() => this.state === 'connected' && this.subscribe(), delay);
        } else this.state = 'failed';
        return;
      }
      default:
        return;
    }
  }

  private subscribe(): void {
    this.state = 'subscribing';
    const frame: Record<string, unknown> = { op: 'subscribe', ref: ++this.ref, channelId: CHANNEL };
    if (this.lastSeq > 0) frame.since = this.lastSeq;
    this.ws!.send(JSON.stringify(frame));
  }

  private onClose(code: number, reason: string): void {
    this.handshakeDone();
    count(`close ${code}${reason ? ` (${reason.slice(0, 60)})` : ''}`);
    if (this.state === 'subscribed') storm.subscribedNow--;
    this.ws = undefined;
    if (code === 4400 || code === 4403 || this.state === 'failed' || storm.stopping) {
      this.state = 'failed';
      return;
    }
    this.state = 'idle';
    let delay = backoffDelay(this.attempts++, RETRY_INITIAL_MS, RETRY_MAX_MS);
    if (code === 4429) delay = Math.max(delay, (this.retryAfterHint ?? 1) * 1000);
    this.retryAfterHint = undefined;
    setTimeout(() => !storm.stopping && this.open(), delay);
  }

  close(): void {
    this.state = 'failed';
    this.ws?.terminate();
  }
}

function pump(): void {
  while (storm.opening < OPEN_WINDOW && openQueue.length > 0) openQueue.shift()!.start();
}
