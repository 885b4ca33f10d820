import { EventEmitter } from 'node:events';
import { Logger as WorkerLogger, run, type WorkerEvents } from 'graphile-worker';
import type { DispatcherConfig } from '@rtm/config';
import type { Pool } from '@rtm/db';
import type { Logger } from '@rtm/ops';
import { DELIVER_BATCH_TASK, DELIVER_ONE_TASK, PRUNE_TASK } from '@rtm/webhooks';
import { ERASE_TASK } from '@rtm/db';
import type { NatsConnection, Subjects } from '@rtm/bus';
import type { OwnerClient } from '@rtm/owner-client';
import type { PushIntake } from './push-intake.ts';
import type { WorkerRecovery } from './worker-recovery.ts';
import { deliverWebhooks } from './tasks/deliver-webhooks.ts';
import { deliverWebhook } from './tasks/deliver-webhook.ts';
import { pruneWebhooks } from './tasks/prune-webhooks.ts';
import { PRUNE_MESSAGES_TASK, pruneMessages } from './tasks/prune-messages.ts';
import { eraseUserMessages } from './tasks/erase-user-messages.ts';
import { DELETE_CHANNEL_TASK, deleteChannel } from './tasks/delete-channel.ts';
import { RECOVER_TASK, recoverWebhooks } from './tasks/recover-webhooks.ts';
import { TEND_ERASURES_TASK, tendErasures } from './tasks/tend-erasures.ts';
import { SWEEP_NOTIFICATIONS_JOB, SWEEP_NOTIFICATIONS_TASK, sweepNotifications } from './tasks/sweep-notifications.ts';
import { DISABLE_ENDPOINTS_JOB, DISABLE_ENDPOINTS_TASK, disableFailingEndpoints } from './tasks/disable-failing-endpoints.ts';
import { USAGE_ROLLUP_JOB, USAGE_ROLLUP_TASK, usageRollup } from './tasks/usage-rollup.ts';
import { PRUNE_USAGE_JOB, PRUNE_USAGE_TASK, pruneUsageTask } from './tasks/prune-usage.ts';

/** How often a worker looks for jobs whose `run_at` has come (retries are scheduled jobs). */
const POLL_INTERVAL_MS = 500;

/** The runners of a dispatcher, stopped together. */
export interface Workers {
  /** Settles when either runner stops. */
  promise: Promise<void>;
  /** graphile-worker's ids of the runners' pools (what `locked_by` names). */
  poolIds: string[];
  stop(): Promise<void>;
}

/**
 * The graphile-worker runners of a dispatcher, tuned as measured: a local queue of 200 jobs
 * (fetched and locked in one query) and completions written at once in batches, which is what
 * lifts the drain from ~2.5k to ~20k jobs/s. Retries are ours (`deliver_webhook` jobs with
 * `run_at`), not graphile-worker's backoff, which only covers a task that could not write the
 * ledger. Retention (webhook deliveries, and messages by namespace) runs from cron every 15 minutes and
 * once at start. Erasures of users' messages and channel deletions run here too
 * (`erase_user_messages`, `delete_channel`, one job per erasure, added by the gateway), tended by
 * `tend_erasures` every minute, and the notification
 * sweep (`sweep_notifications`, every NOTIFICATION_SWEEP_MS, one job that schedules the next), and
 * the check that disables endpoints failing for WEBHOOK_DISABLE_AFTER (`disable_failing_endpoints`,
 * every WEBHOOK_DISABLE_CHECK_MS, the same way), and usage: its rollup (`usage_rollup`, every
 * minute, the same way) and its retention (`prune_usage`, cron every 15 minutes and once at start).
 *
 * Two runners, each with WORKER_CONCURRENCY slots: one for `deliver_webhooks` batches (a
 * retraction's deliveries, those handed back by a dispatcher giving up a partition; a publish's
 * first attempts have no job, push-intake.ts), retention and erasures, one for retries (`deliver_webhook`).
 * A retry holds its slot for as long as its attempt takes, so an endpoint that hangs with many
 * retries due can fill the retry slots, but never delays anyone's first attempt.
 */
// One line per finished job is the ledger's job, not the log's: at thousands of deliveries a
// second it would cost the dispatcher more CPU than the jobs themselves.
const PER_JOB_INFO = /^Completed task /;
// The pool is smaller than the concurrency on purpose (Postgres allows 100 connections for all
// processes): a delivery task holds a connection only for its two short statements, not while
// it waits on the receiver.
const EXPECTED_WARNING = /maxPoolSize .* smaller than concurrency/;

export async function buildWorker(deps: {
  config: DispatcherConfig;
  pool: Pool;
  log: Logger;
  intake: PushIntake;
  recovery: WorkerRecovery;
  /** Channel owners, for erasures' retractions. */
  owners: OwnerClient;
  /** The bus, for channel deletions (closing the channel's sockets on every gateway). */
  nc: NatsConnection;
  subjects: Subjects;
}): Promise<Workers> {
  const { config, pool, log, intake, recovery, owners, nc, subjects } = deps;
  const events: WorkerEvents = new EventEmitter();
  const poolIds: string[] = [];
  events.on('pool:create', ({ workerPool }) => {
    poolIds.push(workerPool.id);
    recovery.holdLiveness(workerPool.id).catch((error: unknown) => log.error({ err: error }, 'could not take the liveness lock'));
  });
  const workerLog = log.child({ component: 'graphile-worker' });
  const logger = new WorkerLogger(() => (level, message, meta) => {
    if (level === 'error') workerLog.error(meta ?? {}, message);
    else if (level === 'warning' && !EXPECTED_WARNING.test(message)) workerLog.warn(meta ?? {}, message);
    else if (level === 'info' && !PER_JOB_INFO.test(message)) workerLog.info(meta ?? {}, message);
    else workerLog.debug(meta ?? {}, message);
  });
  const common = {
    pgPool: pool,
    concurrency: config.WORKER_CONCURRENCY,
    noHandleSignals: true,
    pollInterval: POLL_INTERVAL_MS,
    logger,
    events,
    preset: {
      worker: {
        localQueue: { size: 200 },
        completeJobBatchDelay: 0,
        failJobBatchDelay: 0,
      },
    },
  };
  const first = await run({
    ...common,
    taskList: {
      [DELIVER_BATCH_TASK]: deliverWebhooks(intake),
      [PRUNE_TASK]: pruneWebhooks(pool, config.WEBHOOK_RETENTION, log),
      [PRUNE_MESSAGES_TASK]: pruneMessages(pool, log),
      [ERASE_TASK]: eraseUserMessages({ pool, owners, log }),
      [DELETE_CHANNEL_TASK]: deleteChannel({ pool, nc, subjects, log, batch: config.CHANNEL_DELETION_BATCH }),
      [TEND_ERASURES_TASK]: tendErasures(pool, log),
      [SWEEP_NOTIFICATIONS_TASK]: sweepNotifications(pool, config, log),
      [RECOVER_TASK]: recoverWebhooks(pool, log),
      [DISABLE_ENDPOINTS_TASK]: disableFailingEndpoints({ pool, config, nc, subjects, log }),
      [USAGE_ROLLUP_TASK]: usageRollup(pool, log),
      [PRUNE_USAGE_TASK]: pruneUsageTask(pool, log),
    },
    crontab:
      `*/15 * * * * ${PRUNE_TASK}\n*/15 * * * * ${PRUNE_MESSAGES_TASK} ?jobKey=${PRUNE_MESSAGES_TASK}&queue=${PRUNE_MESSAGES_TASK}\n` +
      `* * * * * ${TEND_ERASURES_TASK} ?jobKey=${TEND_ERASURES_TASK}\n` +
      `*/15 * * * * ${PRUNE_USAGE_TASK} ?jobKey=${PRUNE_USAGE_TASK}&queue=${PRUNE_USAGE_TASK}\n`,
  });
  // the cron lives in the first runner; no cron items keeps this one from looking for a crontab file
  const retries = await run({ ...common, parsedCronItems: [], taskList: { [DELIVER_ONE_TASK]: deliverWebhook(intake) } });
  await first.addJob(PRUNE_TASK, {}, { jobKey: PRUNE_TASK });
  // the named queue runs its jobs one at a time across every dispatcher (a job added while one runs waits)
  await first.addJob(PRUNE_MESSAGES_TASK, {}, { jobKey: PRUNE_MESSAGES_TASK, queueName: PRUNE_MESSAGES_TASK });
  await first.addJob(TEND_ERASURES_TASK, {}, { jobKey: TEND_ERASURES_TASK });
  // a sweep now (one waiting job under the key: a dispatcher starting moves it to now), then every NOTIFICATION_SWEEP_MS
  await first.addJob(SWEEP_NOTIFICATIONS_TASK, {}, SWEEP_NOTIFICATIONS_JOB);
  await first.addJob(DISABLE_ENDPOINTS_TASK, {}, DISABLE_ENDPOINTS_JOB);
  // a rollup now (then every minute, the job adds its next), and the usage retention
  await first.addJob(USAGE_ROLLUP_TASK, {}, USAGE_ROLLUP_JOB);
  await first.addJob(PRUNE_USAGE_TASK, {}, PRUNE_USAGE_JOB);
  return {
    promise: Promise.race([first.promise, retries.promise]),
    poolIds,
    async stop() {
      await Promise.all([first.stop(), retries.stop()]);
    },
  };
}

/**
 * Keeps a dispatcher's runners running. graphile-worker 0.17 shuts a worker pool down for good
 * when it cannot write a job's completion or failure (its batch retry gives up at the first
 * error), which a Postgres restart causes whenever a delivery ends while the server is away: the
 * dispatcher then stayed unready and delivered nothing until someone restarted it. Here a stopped
 * pool is replaced: the old runners are stopped, their liveness locks let go (so the recovery
 * pass of any dispatcher unlocks the jobs they held), and new runners are built, retrying with
 * backoff while Postgres is still away.
 */
export class WorkerSupervisor {
  #current: Workers | undefined;
  #stopping = false;
  #healthy = false;
  readonly #build: () => Promise<Workers>;
  readonly #release: (poolIds: string[]) => Promise<void>;
  readonly #log: Logger;

  constructor(options: { build: () => Promise<Workers>; release: (poolIds: string[]) => Promise<void>; log: Logger }) {
    this.#build = options.build;
    this.#release = options.release;
    this.#log = options.log;
  }

  /** Builds the first runners (a failure here is the caller's: the process cannot start). */
  async start(): Promise<void> {
    this.#adopt(await this.#build());
  }

  /** False from the moment the runners stopped until new ones run. */
  get healthy(): boolean {
    return this.#healthy;
  }

  async stop(): Promise<void> {
    this.#stopping = true;
    // runners that had already failed (being replaced) have nothing left to drain
    await this.#current?.stop().catch((error: unknown) => this.#log.warn({ err: error }, 'stopping the worker runners failed'));
  }

  #adopt(workers: Workers): void {
    this.#current = workers;
    this.#healthy = true;
    workers.promise.then(
      () => this.#replace(workers, undefined),
      (error: unknown) => this.#replace(workers, error),
    );
  }

  async #replace(old: Workers, error: unknown): Promise<void> {
    if (this.#stopping || this.#current !== old) return;
    this.#healthy = false;
    this.#log.error({ err: error }, 'worker pool stopped; starting new runners');
    await old.stop().catch(() => {});
    await this.#release(old.poolIds).catch((releaseError: unknown) =>
      this.#log.warn({ err: releaseError }, "could not let go of the old runners' liveness locks"),
    );
    for (let attempt = 0; !this.#stopping; attempt++) {
      try {
        const workers = await this.#build();
        if (this.#stopping) {
          await workers.stop();
          return;
        }
        this.#adopt(workers);
        this.#log.warn('new worker runners started');
        return;
      } catch (buildError) {
        this.#log.warn({ err: buildError }, 'could not start new worker runners; retrying');
        await new Promise((resolve) => setTimeout(resolve, Math.min(5_000, 250 * 2 ** attempt)));
      }
    }
  }
}
