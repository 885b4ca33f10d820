import type { NatsConnection, Subscription } from '@rtm/bus';

const BEAT_MS = 2_000;
const GONE_AFTER_MS = 3 * BEAT_MS;

/**
 * How many gateways are alive, from heartbeats on plain NATS (no JetStream), so the number is
 * known even when the shared counters are not: it sizes each gateway's local share then.
 */
export class LiveGateways {
  private readonly seen = new Map<string, number>();
  private readonly nc: NatsConnection;
  private readonly subject: string;
  private readonly self: string;
  private subscription: Subscription | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(nc: NatsConnection, subject: string, self: string) {
    this.nc = nc;
    this.subject = subject;
    this.self = self;
  }

  start(): void {
    this.subscription = this.nc.subscribe(this.subject, {
      callback: (_error, msg) => this.seen.set(new TextDecoder().decode(msg.data), Date.now()),
    });
    const beat = () => this.nc.publish(this.subject, new TextEncoder().encode(this.self));
    beat();
    this.timer = setInterval(beat, BEAT_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.subscription?.unsubscribe();
  }

  /** Whether `gateway` has beaten within GONE_AFTER_MS (this gateway always). */
  isLive(gateway: string): boolean {
    if (gateway === this.self) return true;
    const at = this.seen.get(gateway);
    return at !== undefined && Date.now() - at <= GONE_AFTER_MS;
  }

  count(): number {
    const now = Date.now();
    this.seen.set(this.self, now);
    let n = 0;
    for (const [gateway, at] of this.seen) {
      if (now - at <= GONE_AFTER_MS) n++;
      else this.seen.delete(gateway);
    }
    return n;
  }
}
