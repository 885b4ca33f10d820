/**
 * What a gateway runs besides its HTTP listeners, in one place: every long-lived part with its
 * start and stop, in the order they happen. Building the parts (deps.ts, libs/edge edge-deps.ts) has no side effects;
 * `start()` is where subscriptions and timers begin, before the listeners open, and `stop()`
 * ends them in reverse order after the listeners closed (their sockets already told 4503).
 *
 * | order | part | what start begins |
 * |---|---|---|
 * | 0 | usage (libs/usage) | counting the sockets' connections per environment, the meter's writes every USAGE_FLUSH_MS (stopped last: the sockets' closes are counted, then written) |
 * | 1 | credential invalidations (auth/credential-invalidations.ts) | bus: key, origin and token revocations |
 * | 2 | access cache (libs/edge access/access-cache.ts) | bus: access changes of any gateway |
 * | 3 | owner directory (libs/owner-client owner-batcher.ts) | bus: the channel-nodes' announcements of their partitions |
 * | 4 | limits (libs/edge limits/gateway-limits.ts) | shared counters, socket quotas |
 * | 5 | sessions (libs/edge sessions/sessions.ts): feeds, kicks, presence | presence's refresh rounds (feeds and kicks subscribe per socket) |
 * | 6 | dashboard (dashboard/dashboard.ts) | the sweep of expired sessions and sign-in failures |
 * | 7 | live-log interest (libs/bus log-interest.ts) | bus: announcing the environments this gateway holds logs sockets of; hearing the others', so its own socket events go only where someone listens |
 *
 * Back-office jobs are not the gateway's: erasure of a user's messages, channel deletion and the
 * notification sweep are graphile-worker tasks of the dispatcher (apps/dispatcher/src/tasks).
 */
import { CredentialInvalidations, type InvalidationDeps } from './auth/credential-invalidations.ts';
import { countConnections, type SocketEvents } from '@rtm/edge';
import type { Usage } from '@rtm/usage';

interface Service {
  start(): void;
  stop(): void | Promise<void>;
}

interface Part extends Service {
  name: string;
}

/**
 * The parts started here (each a `start()` and a `stop()`; the limits count the socket events)
 * and what the credential invalidations subscribe with. The gateway's deps (deps.ts) are one.
 */
export interface ServicesDeps extends InvalidationDeps {
  accessCache: Service;
  owners: Service;
  limits: { start(events: SocketEvents): void; stop(): void | Promise<void> };
  sessions: Service & InvalidationDeps['sessions'];
  dashboard: Service;
  events: SocketEvents;
  logInterest: Service;
  usage: Usage;
  usageWriter: { start(): void; stop(): Promise<void> };
}

export class GatewayServices {
  readonly #parts: Part[];
  #started = 0;

  constructor(deps: ServicesDeps) {
    const invalidations = new CredentialInvalidations(deps);
    this.#parts = [
      {
        name: 'usage',
        start: () => {
          countConnections(deps.events, deps.usage);
          deps.usageWriter.start();
        },
        stop: () => deps.usageWriter.stop(),
      },
      { name: 'credential invalidations', start: () => invalidations.start(), stop: () => invalidations.stop() },
      { name: 'access cache', start: () => deps.accessCache.start(), stop: () => deps.accessCache.stop() },
      { name: 'owner directory', start: () => deps.owners.start(), stop: () => deps.owners.stop() },
      { name: 'limits', start: () => deps.limits.start(deps.events), stop: () => deps.limits.stop() },
      { name: 'sessions', start: () => deps.sessions.start(), stop: () => deps.sessions.stop() },
      { name: 'dashboard', start: () => deps.dashboard.start(), stop: () => deps.dashboard.stop() },
      { name: 'live-log interest', start: () => deps.logInterest.start(), stop: () => deps.logInterest.stop() },
    ];
  }

  /** Starts every part in order. */
  start(): void {
    for (; this.#started < this.#parts.length; this.#started++) this.#parts[this.#started]!.start();
  }

  /** Stops what was started, last first; a part that fails to stop does not keep the others running. */
  async stop(log?: { warn(details: object, message: string): void }): Promise<void> {
    for (; this.#started > 0; this.#started--) {
      const part = this.#parts[this.#started - 1]!;
      try {
        await part.stop();
      } catch (error) {
        log?.warn({ err: error }, `${part.name} did not stop cleanly`);
      }
    }
  }
}
