/**
 * Where a job's deliveries go (`deliver_webhook` retries, `deliver_webhooks` of a retraction or a
 * hand-back; tasks/): only an owner sends (push-intake.ts), so a job run on any dispatcher queues
 * them in this dispatcher's memory when it owns their partition, forwards them to their owner
 * otherwise (a NATS request on the partition's notice subject), and when no owner takes them puts
 * them back into a job shortly after.
 */
import { decodeJson, encodeJson, isNoResponders, isTimeout, webhookPartitionOf, type NatsConnection, type Subjects } from '@rtm/bus';
import { handBackDeliveries } from './delivery/delivery-leases.ts';
import { pendingDeliveries } from './intake/pending-reads.ts';
import type { Pool } from '@rtm/db';
import type { Logger } from '@rtm/ops';
import type { Counter } from 'prom-client';
import { byPartition, type Delivery } from './push-notices.ts';

/** How long a job waits for the owner to take its deliveries before deferring them. */
const FORWARD_TIMEOUT_MS = 2_000;
/** How long deliveries no owner took wait before their job tries again (a partition is between owners for about a rebalance). */
const NO_OWNER_RETRY_MS = 1_000;
/** Ids per hand-back job. */
export const HAND_BACK = 64;

/** What the router needs of the owner's intake (push-intake.ts). */
export interface RouterIntake {
  owns(partition: number): boolean;
  /** Queues a job's deliveries of owned partitions in memory; false if they were not taken (memory full). */
  take(deliveries: readonly Delivery[]): boolean;
  stopped(): boolean;
}

export class JobRouter {
  readonly #pool: Pool;
  readonly #log: Logger;
  readonly #nc: NatsConnection;
  readonly #subjects: Subjects;
  readonly #forwards: Counter<'result'>;
  readonly #deliver: (ids: string[]) => Promise<void>;
  readonly #intake: RouterIntake;

  /** `deliver`: sends deliveries at once (the deliverer), for an owner whose memory is full. */
  constructor(deps: {
    pool: Pool;
    log: Logger;
    nc: NatsConnection;
    subjects: Subjects;
    forwards: Counter<'result'>;
    deliver: (ids: string[]) => Promise<void>;
    intake: RouterIntake;
  }) {
    this.#pool = deps.pool;
    this.#log = deps.log;
    this.#nc = deps.nc;
    this.#subjects = deps.subjects;
    this.#forwards = deps.forwards;
    this.#deliver = deps.deliver;
    this.#intake = deps.intake;
  }

  /**
   * A job's deliveries: those of partitions this dispatcher owns join its memory queues (as a
   * notice's would; sent at once if its memory is full); the others are forwarded to their owner,
   * which queues them the same way. If no owner takes them (none at the moment, NATS away, a full
   * memory) they go back into a job that runs NO_OWNER_RETRY_MS later: a dispatcher that does
   * not own an environment never sends its deliveries, whose rate and concurrency limits are
   * counted in the owner's memory (sent here, they had a second bucket of their own).
   */
  async route(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    const intake = this.#intake;
    const rows = await pendingDeliveries(this.#pool, ids);
    const here: string[] = [];
    const deferred: string[] = [];
    await Promise.all(
      [...byPartition(rows, webhookPartitionOf)].map(async ([partition, list]) => {
        if (intake.owns(partition)) {
          // a job of our own (a retry): it waits in memory with the pushed deliveries of its
          // endpoint, so one held back by the endpoint's limit, rate or open circuit is never
          // deferred through Postgres; the job ends now, and if this process dies the row is
          // pending and unleased, which the next owner's catch-up finds
          if (intake.take(list)) this.#forwards.inc({ result: 'queued_here' }, list.length);
          else {
            this.#forwards.inc({ result: 'sent_here' }, list.length);
            here.push(...list.map(([id]) => id));
          }
          return;
        }
        if (await this.#forward(partition, list)) this.#forwards.inc({ result: 'forwarded' }, list.length);
        else {
          // no owner took them (the partition between owners, NATS away, the owner's memory
          // full): only an owner sends, so its endpoints' rates and limits hold cluster-wide;
          // a new job tries again shortly, and the owner's catch-up finds them meanwhile
          this.#forwards.inc({ result: 'deferred' }, list.length);
          deferred.push(...list.map(([id]) => id));
        }
      }),
    );
    for (let i = 0; i < deferred.length; i += HAND_BACK) await handBackDeliveries(this.#pool, deferred.slice(i, i + HAND_BACK), NO_OWNER_RETRY_MS);
    if (here.length > 0) await this.#deliver(here);
  }

  async #forward(partition: number, deliveries: Delivery[]): Promise<boolean> {
    if (this.#intake.stopped()) return false;
    try {
      const reply = await this.#nc.request(this.#subjects.webhookNotices(partition), encodeJson(deliveries), { timeout: FORWARD_TIMEOUT_MS });
      return (decodeJson<{ queued?: unknown }>(reply.data).queued ?? false) === true;
    } catch (error) {
      if (!isNoResponders(error) && !isTimeout(error)) this.#log.warn({ err: error, partition }, 'could not forward deliveries to their owner');
      return false;
    }
  }
}
