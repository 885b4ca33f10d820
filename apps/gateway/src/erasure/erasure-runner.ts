/**
 * Runs erasure jobs (see erasure-jobs.ts) on this gateway: each message of the user is retracted
 * through its channel's owner, exactly as a retraction by API, so sockets get the `retract` frame
 * and the channel node enqueues the `message.retracted` webhook in the same transaction. Every
 * gateway looks for jobs without a live lease every POLL_MS (and at once when it accepts one), so
 * a job survives the crash of the gateway that ran it. Each retraction carries the job's lease
 * token, so one made after another gateway took the job over changes nothing and counts nothing
 * (erasure-jobs.ts, "Fencing").
 */
import { isServiceError } from '@rtm/errors';
import type { GatewayDeps } from '../deps.ts';
import { advanceErasureJob, claimErasureJob, nextErasureBatch, pruneErasureJobs, type ErasureJob, type ErasureTarget } from './erasure-jobs.ts';

const BATCH = 100;
const PARALLEL = 8;
const POLL_MS = 5_000;
const PRUNE_EVERY_MS = 3_600_000;
/** How long a finished job's progress stays readable. */
export const ERASURE_JOB_KEEP_DAYS = 30;
export const ERASURE_REASON = 'erased';

export class ErasureRunner {
  private readonly deps: GatewayDeps;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private again = false;
  private stopped = false;
  private prunedAt = 0;

  constructor(deps: GatewayDeps) {
    this.deps = deps;
  }

  start(): void {
    this.stopped = false;
    this.timer = setInterval(() => this.wake(), POLL_MS);
    this.timer.unref();
    this.wake();
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
  }

  /** Looks for work now (a job was just created here). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    void this.drain()
      .catch((error: unknown) => this.deps.log.warn({ err: error }, 'erasure runner failed'))
      .finally(() => {
        this.running = false;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  private async drain(): Promise<void> {
    if (Date.now() - this.prunedAt > PRUNE_EVERY_MS) {
      this.prunedAt = Date.now();
      await pruneErasureJobs(this.deps.pool, ERASURE_JOB_KEEP_DAYS);
    }
    for (;;) {
      if (this.stopped) return;
      const job = await claimErasureJob(this.deps.pool);
      if (!job) return;
      await this.run(job);
    }
  }

  private async run(job: ErasureJob): Promise<void> {
    let cursor = job.cursor;
    while (!this.stopped) {
      const batch = await nextErasureBatch(this.deps.pool, { ...job, cursor }, BATCH);
      const { handled, error } = await this.retractAll(job, batch);
      // the cursor moves past the handled prefix only: a failed message is tried again
      const last = handled.length > 0 ? handled[handled.length - 1]!.target : undefined;
      if (last) cursor = { channelPk: last.channelPk, seq: last.seq };
      const done = !error && batch.length < BATCH;
      // false: another gateway holds the job now (its retractions refused ours); it goes on from there
      const held = await advanceErasureJob(this.deps.pool, job, cursor, { done, error });
      if (!held || done || error) return;
    }
  }

  /**
   * Retracts a batch, PARALLEL at a time; stops at the first failure (a retraction refused because
   * another gateway took the job over is one). The channel owner counts what it retracts.
   */
  private async retractAll(job: ErasureJob, batch: ErasureTarget[]): Promise<{ handled: { target: ErasureTarget }[]; error?: string }> {
    const handled: { target: ErasureTarget }[] = [];
    for (let i = 0; i < batch.length; i += PARALLEL) {
      const slice = batch.slice(i, i + PARALLEL);
      const results = await Promise.allSettled(
        slice.map((target) =>
          this.deps.owners.send({
            op: 'retract',
            environmentId: job.environmentId,
            channelId: target.channelId,
            messageId: target.messageId,
            reason: ERASURE_REASON,
            erasure: { jobId: job.id, leaseToken: job.leaseToken ?? '' },
          }),
        ),
      );
      for (let j = 0; j < slice.length; j++) {
        const result = results[j]!;
        if (result.status === 'fulfilled') {
          handled.push({ target: slice[j]! });
          continue;
        }
        // gone meanwhile (its channel was deleted): nothing left to retract
        if (isServiceError(result.reason) && result.reason.code === 'not_found') {
          handled.push({ target: slice[j]! });
          continue;
        }
        const reason = isServiceError(result.reason) ? `${result.reason.code}: ${result.reason.reason ?? ''}` : String(result.reason);
        return { handled, error: reason };
      }
    }
    return { handled };
  }
}
