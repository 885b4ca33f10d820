/**
 * The connect benchmark's clients (test/bench/connect.bench.ts): multiplexed `/v1/connect`
 * connections that subscribe to all their channels at once (as a reconnecting client does) and
 * count every message frame in one tally per run, sampling the latency of every SAMPLE_EVERY-th.
 */
import WebSocket from 'ws';
import type * as hdr from 'hdr-histogram-js';
import { histogram } from './figures.ts';

const SAMPLE_EVERY = 20;
const RETRY_MS = 250;

/** Deliveries counted across every client of one run. */
export class Tally {
  deliveries = 0;
  lastAt = 0;
  expected = 0;
  readonly histogram: hdr.Histogram = histogram(600_000_000);
  private done: (() => void) | undefined;

  /** Resolves once `expected` deliveries have been counted, or after `limitMs`. */
  until(expected: number, limitMs: number): Promise<void> {
    this.expected = expected;
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, limitMs);
      this.done = () => {
        clearTimeout(timer);
        resolve();
      };
      if (this.deliveries >= expected) this.done();
    });
  }

  count(text: string): void {
    this.deliveries++;
    this.lastAt = Date.now();
    if (this.deliveries % SAMPLE_EVERY === 0) {
      const sentAt = (JSON.parse(text) as { content: { sentAt: number } }).content.sentAt;
      this.histogram.recordValue(Math.max(1, (Date.now() - sentAt) * 1000));
    }
    if (this.deliveries === this.expected) this.done?.();
  }
}

/** One multiplexed connection: `connected`, then subscribes; message frames are counted in the tally. */
export class Client {
  readonly ws: WebSocket;
  readonly opened: Promise<void>;
  private subscribed = 0;
  private wanted = 0;
  private onSubscribed: (() => void) | undefined;
  private ref = 0;
  refused = 0;
  /** `presence` frames received: each carries the arrivals of up to 250 ms in one channel, to its other subscribers. */
  presence = 0;
  /** Subscriptions the server ended after they were all open. */
  readonly problems: string[] = [];
  private failed: ((error: Error) => void) | undefined;
  closedWith: number | undefined;

  constructor(url: string, tally: { current: Tally | undefined }) {
    this.ws = new WebSocket(url, { perMessageDeflate: false });
    this.opened = new Promise<void>((resolve, reject) => {
      this.failed = reject;
      this.ws.on('error', (error) => this.failed?.(error));
      this.ws.on('close', (code) => {
        this.closedWith = code;
        this.failed?.(new Error(`socket closed ${code}`));
      });
      this.ws.on('message', (data) => {
        const text = String(data);
        if (!text.includes('"op":"')) return tally.current?.count(text);
        const frame = JSON.parse(text) as { op: string; code?: string; reason?: string; channelId?: string };
        if (frame.op === 'connected') return resolve();
        if (frame.op === 'presence') {
          this.presence++;
          return;
        }
        if (frame.op === 'subscribed') {
          if (++this.subscribed === this.wanted) this.onSubscribed?.();
          return;
        }
        if (frame.op === 'error' && frame.code === 'unavailable' && frame.channelId) {
          this.refused++;
          const channelId = frame.channelId;
          setTimeout(() => this.ws.send(JSON.stringify({ op: 'subscribe', ref: this.ref++, channelId })), RETRY_MS);
          return;
        }
        if (frame.op === 'error' || frame.op === 'unsubscribed') {
          const problem = `${frame.op} ${frame.channelId ?? ''}: ${frame.code} ${frame.reason}`;
          // once subscribed, a subscription the server ends shows as missing deliveries: say why
          if (this.subscribed === this.wanted) this.problems.push(problem);
          else this.failed?.(new Error(problem));
        }
      });
    });
  }

  /**
   * Subscribes to every channel at once, as a reconnecting client does. A subscribe refused with
   * `unavailable` (a dependency of the gateway was too slow: try again) is sent again after
   * RETRY_MS and counted in `refused`; any other refusal fails.
   */
  subscribe(channels: string[]): Promise<void> {
    this.wanted += channels.length;
    const all = new Promise<void>((resolve, reject) => {
      this.onSubscribed = resolve;
      this.failed = reject;
    });
    for (const channelId of channels) this.ws.send(JSON.stringify({ op: 'subscribe', ref: this.ref++, channelId }));
    return all;
  }

  async close(): Promise<void> {
    this.failed = undefined;
    if (this.ws.readyState === WebSocket.CLOSED) return;
    const closed = new Promise((resolve) => this.ws.once('close', resolve));
    this.ws.close(1000);
    await closed;
  }
}
