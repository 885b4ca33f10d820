/**
 * The steady load of the cluster test: HTTP publishers (server publishes through the balancer,
 * each with its own idempotency key, re-sent until acknowledged) and socket subscribers (SDK
 * clients through the balancer, each subscribed from seq 0 to one channel). Everything is
 * recorded with timestamps, so each scenario can measure its window afterwards.
 */
import WebSocket from 'ws';
import { createClient, type Client, type Message } from '@rtm/client';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface Ack {
  publisher: number;
  key: string;
  channelId: string;
  id: string;
  seq: number;
  /** When the publish that got this ack was first sent, and when the ack arrived. */
  startedAt: number;
  at: number;
}

export interface Refusal {
  publisher: number;
  at: number;
  /** HTTP status, or 0 for a connection error / time-out. */
  status: number;
  code: string;
  /** The start of the answer's reason (the balancer's own answers say so). */
  reason: string;
}

export class Publishers {
  readonly acks: Ack[] = [];
  readonly refusals: Refusal[] = [];
  private running = false;
  private paused = false;
  private readonly loops: Promise<void>[] = [];
  private idle = new Set<number>();
  private failure: Error | undefined;

  private readonly controlUrls: string[];
  private readonly secretKey: string;
  private readonly channels: string[];
  private readonly count: number;
  private readonly pauseMs: number;

  /** `controlUrl`: one (a balancer), or several: publisher i sends to the (i mod n)-th. */
  constructor(controlUrl: string | string[], secretKey: string, channels: string[], count: number, pauseMs: number) {
    this.controlUrls = [controlUrl].flat();
    this.secretKey = secretKey;
    this.channels = channels;
    this.count = count;
    this.pauseMs = pauseMs;
  }

  start(): void {
    this.running = true;
    for (let i = 0; i < this.count; i++) this.loops.push(this.loop(i));
  }

  /** Resolves once every publisher has its last publish acknowledged and waits. */
  async pause(): Promise<void> {
    this.paused = true;
    while (this.idle.size < this.count) {
      this.check();
      await sleep(20);
    }
    this.check();
  }

  resume(): void {
    this.paused = false;
  }

  async stop(): Promise<void> {
    this.running = false;
    this.paused = false;
    await Promise.all(this.loops);
    this.check();
  }

  /** Throws what made a publisher give up (an answer no retry can fix). */
  check(): void {
    if (this.failure) throw this.failure;
  }

  private async loop(publisher: number): Promise<void> {
    for (let n = 0; this.running; n++) {
      if (this.paused) {
        this.idle.add(publisher);
        while (this.paused && this.running) await sleep(20);
        this.idle.delete(publisher);
        if (!this.running) break;
      }
      const channelId = this.channels[(publisher + n) % this.channels.length]!;
      try {
        await this.publishOne(publisher, channelId, `p${publisher}-${n}`);
      } catch (error) {
        this.failure ??= error as Error;
        this.idle.add(publisher);
        return;
      }
      await sleep(this.pauseMs);
    }
    this.idle.add(publisher);
  }

  private async publishOne(publisher: number, channelId: string, key: string): Promise<void> {
    const startedAt = Date.now();
    for (let attempt = 0; ; attempt++) {
      let status = 0;
      let code = 'connection';
      let reason = '';
      try {
        const res = await fetch(`${this.controlUrls[publisher % this.controlUrls.length]}/v1/channels/${channelId}/messages`, {
          method: 'POST',
          headers: { authorization: `Bearer ${this.secretKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ content: { key }, idempotencyKey: key }),
          signal: AbortSignal.timeout(15_000),
        });
        const text = await res.text();
        status = res.status;
        let body: any;
        try {
          body = JSON.parse(text);
        } catch {
          body = { code: `(not JSON) ${text.slice(0, 80)}` };
        }
        if (status === 201) {
          this.acks.push({ publisher, key, channelId, id: body.id, seq: body.seq, startedAt, at: Date.now() });
          return;
        }
        code = String(body?.code);
        reason = String(body?.reason ?? '').slice(0, 60);
        // 502/504: the balancer lost the gateway mid-request; the outcome is unknown, the key makes the re-send safe
        if (![502, 503, 504].includes(status)) throw new Error(`publish ${key}: ${status} ${text.slice(0, 300)}`);
      } catch (error) {
        if (status !== 0 && ![502, 503, 504].includes(status)) throw error;
      }
      this.refusals.push({ publisher, at: Date.now(), status, code, reason });
      // stopped (the test is over, or failed): an unacknowledged publish is given up
      if (!this.running) return;
      if (Date.now() - startedAt > 90_000) throw new Error(`publish ${key}: not acknowledged within 90 s (last ${status} ${code})`);
      await sleep(Math.min(50 * 2 ** Math.min(attempt, 3), 400));
    }
  }

  /** Per publisher, the longest time without an ack within [from, to] (window edges count). */
  longestGap(from: number, to: number): number {
    let longest = 0;
    for (let p = 0; p < this.count; p++) {
      let last = from;
      for (const ack of this.acks) {
        if (ack.publisher !== p || ack.at < from || ack.at > to) continue;
        longest = Math.max(longest, ack.at - last);
        last = ack.at;
      }
      longest = Math.max(longest, to - last);
    }
    return longest;
  }

  /** The time from `at` until every publisher had an ack for a publish it sent after `at`. */
  resumedAfter(at: number): number | undefined {
    let latest = at;
    for (let p = 0; p < this.count; p++) {
      const first = this.acks.find((ack) => ack.publisher === p && ack.startedAt >= at);
      if (!first) return undefined;
      latest = Math.max(latest, first.at);
    }
    return latest - at;
  }
}

export interface Subscriber {
  index: number;
  channelId: string;
  client: Client;
  received: Message[];
  /** Times from losing the connection to `connected` again, with when it happened. */
  resumes: Array<{ at: number; ms: number; code: number | undefined }>;
  downSince: number | undefined;
  downCode: number | undefined;
}

export async function startSubscribers(
  realtimeUrl: string,
  channels: string[],
  count: number,
  tokenFor: (userId: string) => Promise<string>,
): Promise<Subscriber[]> {
  const subscribers: Subscriber[] = [];
  for (let index = 0; index < count; index++) {
    const userId = `reader-${index}`;
    const token = await tokenFor(userId);
    const client = createClient({
      url: realtimeUrl,
      getToken: () => token,
      WebSocket: WebSocket as never,
    });
    const sub: Subscriber = {
      index,
      channelId: channels[index % channels.length]!,
      client,
      received: [],
      resumes: [],
      downSince: undefined,
      downCode: undefined,
    };
    client.on('state', (state, change) => {
      if (state === 'connected') {
        if (sub.downSince !== undefined) sub.resumes.push({ at: sub.downSince, ms: Date.now() - sub.downSince, code: sub.downCode });
        sub.downSince = undefined;
      } else if (sub.downSince === undefined && state !== 'connecting') {
        sub.downSince = Date.now();
        sub.downCode = change.code;
      }
    });
    subscribers.push(sub);
  }
  await Promise.all(subscribers.map((sub) => sub.client.channel(sub.channelId).subscribe((message) => sub.received.push(message), { since: 0 }).ready));
  return subscribers;
}
