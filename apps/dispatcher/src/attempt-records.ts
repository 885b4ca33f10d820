/**
 * What happens to a send's outcome (delivery/delivery-life.ts): recorded in the ledger's own
 * terms, counted, and told to the live log.
 *
 * Records are group-committed (statement-batcher.ts): each send's outcome is added as soon as the
 * send ends, waits RECORD_GATHER_MS for others to share its statement (nobody waits for a record:
 * the send has happened) and only for the statement of its kind already running; then everything
 * that gathered meanwhile goes in one statement, of any number of chunks. Each statement is fenced
 * by the leases the deliveries were sent under (delivery/delivery-leases.ts), so a stale
 * outcome changes nothing.
 *
 * Where an outcome goes: a ledger row's attempt (RECORD_SQL); a first attempt of the delivery log
 * that succeeded, one narrow outcome row; one that failed, made a ledger row with its exact body
 * and then recorded as any attempt (docs/webhooks.md, "The delivery log").
 */
import type { Pool } from '@rtm/db';
import { logListened, publishLogs, type NatsConnection, type Subjects } from '@rtm/bus';
import { materializeLogged, recordLoggedSuccesses } from './intake/delivery-log.ts';
import { recordAttempts } from './delivery/delivery-leases.ts';
import type { Logger } from '@rtm/ops';
import type { Usage } from '@rtm/usage';
import { StatementBatcher } from './statement-batcher.ts';
import { attemptLogs, attemptRecord, failedAttemptLine, type Outcome } from './attempt-outcome.ts';
import type { DeliveryMetrics } from './delivery-metrics.ts';
import type { LogPositions } from './log-positions.ts';

/** How long an attempt's record waits for others to share its statement. */
const RECORD_GATHER_MS = 20;

export interface AttemptRecordsDeps {
  pool: Pool;
  nc: NatsConnection;
  subjects: Subjects;
  log: Logger;
  metrics: DeliveryMetrics;
  /** The group commit's bounds: statements at once, outcomes per statement. */
  batching: { concurrency: number; maxItems: number };
  /** The deliveries of the log held (shared with push-intake.ts): told when their outcomes are durable. */
  logged?: LogPositions;
  /** How long a ledger row made for a failed first attempt is leased to this dispatcher. */
  leaseMs: number;
  /** Counts recorded attempts per environment (docs/stats.md); unset: nothing counted. */
  usage?: Usage;
}

export class AttemptRecords {
  readonly #deps: AttemptRecordsDeps;
  readonly #records: StatementBatcher<Outcome, void>;

  constructor(deps: AttemptRecordsDeps) {
    this.#deps = deps;
    this.#records = new StatementBatcher((outcomes) => this.#statement(outcomes), { ...deps.batching, gatherMs: RECORD_GATHER_MS });
  }

  /** Records one outcome with the others that gather meanwhile; rejects if its statement failed (logged once per statement). */
  add(outcome: Outcome): Promise<void> {
    return this.#records.add([outcome]);
  }

  /**
   * Records attempts that ended (of any chunks: #records gathers them), counts them and the drops,
   * and tells the live log.
   */
  async #statement(outcomes: readonly Outcome[]): Promise<void> {
    if (outcomes.length === 0) return;
    // the attempts' metrics, once per statement rather than per send
    let delivered = 0;
    for (const { result } of outcomes) {
      if (result.ok) delivered++;
      this.#deps.metrics.duration.observe(result.durationMs / 1000);
    }
    if (delivered > 0) this.#deps.metrics.attempts.inc({ result: 'delivered' }, delivered);
    if (delivered < outcomes.length) this.#deps.metrics.attempts.inc({ result: 'failed' }, outcomes.length - delivered);
    try {
      await this.#write(outcomes);
    } catch (error) {
      // the leases expire and these deliveries are attempted again: at-least-once, never lost;
      // deliveries of the log are let go, the next read of the log finds them
      this.#deps.logged?.forget(outcomes.map(({ row }) => row.id));
      this.#deps.log.error({ err: error, deliveries: outcomes.length }, 'could not record webhook attempts');
      throw error;
    }
    // counted once recorded (a record that fails is attempted again, and counted then)
    for (const outcome of outcomes) if (outcome.status === 'dropped') this.#deps.metrics.dropped.inc();
    const usage = this.#deps.usage;
    if (usage) {
      for (const { row, result, status } of outcomes) {
        usage.add(row.environment_id, result.ok ? 'webhook_deliveries' : 'webhook_failed_attempts');
        if (status === 'dropped') usage.add(row.environment_id, 'webhook_dropped');
      }
    }
    this.#announce(outcomes);
    this.#logFailures(outcomes);
  }

  /** A line per failed attempt, once it is recorded: `warn`, or `error` when it dropped the delivery. */
  #logFailures(outcomes: readonly Outcome[]): void {
    for (const outcome of outcomes) {
      const line = failedAttemptLine(outcome);
      if (line === null) continue;
      if (line.dropped) this.#deps.log.error(line, 'webhook attempt failed; delivery dropped');
      else this.#deps.log.warn(line, 'webhook attempt failed');
    }
  }

  /**
   * Writes attempts and new states in one statement (one commit, not one per delivery), and puts
   * the retry job of each delivery that stays pending at its due time. Fenced by the lease: if
   * this claim's lease lapsed and another dispatcher claimed the delivery since, this (stale)
   * outcome changes nothing, so the ledger follows the newest claim.
   */
  async #write(outcomes: readonly Outcome[]): Promise<void> {
    const ledger: Outcome[] = [];
    const succeeded: Outcome[] = [];
    const failed: Outcome[] = [];
    for (const outcome of outcomes) {
      if (!outcome.row.logged) ledger.push(outcome);
      else if (outcome.status === 'delivered') succeeded.push(outcome);
      else failed.push(outcome);
    }
    await Promise.all([
      ledger.length > 0 ? recordAttempts(this.#deps.pool, ledger.map(attemptRecord)) : undefined,
      // the common case: one narrow row appended per delivery, nothing else
      recordLoggedSuccesses(
        this.#deps.pool,
        succeeded.map(({ row, at, result }) => ({
          id: row.id,
          createdAt: row.logged!.createdAt,
          environmentId: row.environment_id,
          endpointId: row.endpoint_id,
          at,
          statusCode: result.statusCode!,
          durationMs: result.durationMs,
        })),
      ),
      failed.length > 0 ? this.#writeFailedLogged(failed) : undefined,
    ]);
    this.#deps.logged?.done(succeeded.map(({ row }) => row.id));
  }

  /**
   * First attempts of the log that failed: each made a ledger row with its exact body (leased to
   * this dispatcher), then recorded as any attempt is, under that lease: the retry schedule, the
   * drop, the endpoint's failing streak and `delivery.dropped` are the ledger's from here on.
   */
  async #writeFailedLogged(failed: readonly Outcome[]): Promise<void> {
    const leases = await materializeLogged(
      this.#deps.pool,
      failed.map(({ row }) => ({ id: row.id, environmentId: row.environment_id, createdAt: row.logged!.createdAt })),
      this.#deps.leaseMs,
    );
    // the ledger row stands for them now (or already did: cancelled meanwhile, made elsewhere)
    this.#deps.logged?.done(failed.map(({ row }) => row.id));
    const made = failed.filter(({ row }) => leases.has(row.id));
    if (made.length > 0)
      await recordAttempts(
        this.#deps.pool,
        made.map((outcome) => ({ ...attemptRecord(outcome), lease: leases.get(outcome.row.id)! })),
      );
  }

  /** The live-log events of recorded attempts, of the environments someone listens to: one bus message per environment (publishLogs). */
  #announce(outcomes: readonly Outcome[]): void {
    const { nc, subjects } = this.#deps;
    for (const [environmentId, entries] of attemptLogs(outcomes, (environmentId) => logListened(nc, environmentId)))
      publishLogs(nc, subjects, environmentId, entries);
  }
}
