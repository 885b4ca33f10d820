/**
 * The node's commit pipeline. Partition actors still decide what to write and in which order
 * (each has at most one batch in flight, so per-channel order is theirs alone); this module
 * merges the batches that several actors submit at the same moment into ONE transaction.
 * Why: with many channels the batch of one partition is small (in-flight requests ÷ partitions,
 * ~1.5 at 50 clients and 32 partitions), and a transaction per tiny batch costs as many round
 * trips and WAL flushes as a transaction per message. Merged, one commit carries whatever the
 * whole node has in hand.
 *
 * Guarantees:
 * - a submission's outcome is exactly what writeBatch would give for it alone (channel sets of
 *   actors are disjoint), except that a command which fails gets its own error reply;
 * - one bad command never fails another: a failed merged transaction is bisected by command
 *   (isolate-failures.ts) until only the failing commands are left out; every other command
 *   commits exactly once, with seqs re-planned from what is committed, so no gap, no duplicate;
 * - a FenceError rolls back, drops what the submitters believed about those channels and
 *   retries from Postgres' values; a channel that keeps moving is isolated like a bad command;
 * - `commit` never rejects: every command gets a reply;
 * - at most `lanes` transactions run at once, and a lane takes first the submissions that carry
 *   the environments with the least work waiting (fair-group.ts), so an environment that floods
 *   many partitions cannot keep a quiet one's batch waiting behind its own;
 * - a reaction group (the heaviest command: reads, writes and a summary over a message's
 *   reactions) never shares a transaction with other submissions, and a lane opens at once beside
 *   lanes that only commit such groups (fair-group.ts apartFromSlow): another partition's
 *   publishes do not wait for a summary;
 * - a further lane opens only once every transaction running has taken `laneOpensAfterMs`: what
 *   arrives while one commits waits for it and goes in the next transaction together (a lane
 *   that opened at once took each arrival alone: twice the transactions, half their size, more
 *   CPU per message in Postgres and here), and a transaction that stalls (a lock, a slow disk,
 *   a bisection) still does not hold up the other partitions for longer than that;
 * - a lane whose transaction ended with few commands waiting, while commands arrive fast, waits
 *   a moment for more before the next one (`linger`: libs/ops linger.ts): at most `maxMs`, and
 *   only as long as filling to `fill` commands is expected to take; it goes as soon as `fill`
 *   are waiting. At rest (less than one command expected within `maxMs`) it never waits. Under
 *   load the partitions' next batches arrive just after a commit's replies go out, and without
 *   the wait the next transaction would leave with the first one or two of them.
 */
import type { Usage } from '@rtm/usage';
import { countWebhookEvents } from './usage-count.ts';
import type { Counter, Histogram } from 'prom-client';
import type { Pool } from '@rtm/db';
import { ArrivalRate, lingerMs, type LingerOptions, type Logger } from '@rtm/ops';
import { isReactionGroup, type NodeCommand, type QuotaAllowance } from './batch-plan.ts';
import { QUOTA_RETRIES, QuotaError, readAllowance } from './quota-allowance.ts';
import type { NoticeDelivery } from '@rtm/webhooks';
import { FenceError, WebhookBelief, channelKey, writeBatch, writesInOneStatement, type BatchOutcome, type ChannelState } from './commit-batch.ts';
import { apartFromSlow, takeFairGroup } from './fair-group.ts';
import { isSplittable, isolateFailures, replyForFailure } from './isolate-failures.ts';

interface Submission {
  commands: readonly NodeCommand[];
  cache: Map<string, ChannelState>;
  resolve: (outcome: BatchOutcome) => void;
  /** performance.now() when submitted: the wait for a lane is measured from it. */
  submittedAt: number;
}

const FENCE_RETRIES = 5;

/**
 * The channel-node's `laneOpensAfterMs`: longer than a healthy transaction under load (the
 * publish benchmark's are 1-5 ms), short against a stalled one.
 */
export const LANE_OPENS_AFTER_MS = 10;

export interface CommitterOptions {
  maxCommands: number;
  lanes: number;
  log: Logger;
  /** Transactions run to isolate failing commands, and commands that failed alone. */
  isolation?: Counter<'event'>;
  /** Mention notifications not stored, by reason (`unreadable`, `over_cap`). */
  mentionsDropped?: Counter<'reason'>;
  /**
   * Called after each commit that recorded webhook deliveries without a job, with them: the
   * post-commit notice that wakes a dispatcher (a lost one is caught by its owner's catch-up).
   */
  deliveriesCommitted?: (deliveries: NoticeDelivery[]) => void;
  /** Called after each commit that counted messages of environments with a monthly quota: `[environmentId, used, limit]` (the threshold events). */
  quotaCounted?: (counts: [string, number, number][]) => void;
  /** Counts each committed transaction's webhook deliveries written (usage-count.ts). */
  usage?: Usage;
  /** A publish's deliveries are committed leased to their webhook partition's owner for this long (push-notice.ts). */
  pushLeaseMs?: number;
  /** A lane beyond the first opens once every transaction running has run this long (default 0: at once). */
  laneOpensAfterMs?: number;
  /** How a lane waits for more commands between its transactions under load (default: it never waits). */
  linger?: LingerOptions;
  /** Waits between transactions that ended by the group filling (`filled`) or by the bound or the expected fill time (`timed_out`). */
  lingered?: Counter<'end'>;
  /**
   * Where a commit's time goes: each submission's wait for a lane, and each transaction's time
   * (a pooled connection, the statement, the commit) and commands.
   */
  timings?: { laneWaitSeconds: Histogram; transactionSeconds: Histogram; transactionCommands: Histogram };
}

export class NodeCommitter {
  private readonly pool: Pool;
  private readonly options: CommitterOptions;
  private readonly pending: Submission[] = [];
  private running = 0;
  /** performance.now() when each running lane's transaction group started, and whether it carries a reaction group. */
  private readonly groupsSince = new Set<{ at: number; slow: boolean }>();
  /** Opens a lane when the running ones have taken laneOpensAfterMs (pending work, no new arrival). */
  private laneTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly webhooks = new WebhookBelief();
  /** Commands waiting in `pending`. */
  private pendingCommands = 0;
  /** Commands submitted per millisecond, recently (the linger's measure of load). */
  private readonly arrivals = new ArrivalRate();
  /** A lane lingering: woken when enough commands wait, or its deadline passed at an arrival. */
  private lingering: { deadline: number; wake: (end: 'filled' | 'timed_out') => void } | undefined;

  constructor(pool: Pool, options: CommitterOptions) {
    this.pool = pool;
    this.options = options;
  }

  /** Commits `commands` (with the submitter's view of its channels); resolves after commit. */
  commit(commands: readonly NodeCommand[], cache: Map<string, ChannelState>): Promise<BatchOutcome> {
    return new Promise((resolve) => {
      const now = performance.now();
      this.pending.push({ commands, cache, resolve, submittedAt: now });
      this.pendingCommands += commands.length;
      this.arrivals.add(commands.length, now);
      const lingering = this.lingering;
      if (lingering) {
        if (this.pendingCommands >= this.options.linger!.fill) lingering.wake('filled');
        else if (now >= lingering.deadline) lingering.wake('timed_out');
      }
      this.openLane();
    });
  }

  /** Starts a lane for the pending work when one is free and, past the first, the running ones have taken long enough. */
  private openLane(): void {
    if (this.pending.length === 0 || this.running >= this.options.lanes) return;
    const after = this.options.laneOpensAfterMs ?? 0;
    let newest = -Infinity;
    let allSlow = true;
    for (const group of this.groupsSince) {
      newest = Math.max(newest, group.at);
      allSlow &&= group.slow;
    }
    // a lane busy with a reaction group does not make the others wait for it (apartFromSlow)
    const left = this.running === 0 || allSlow ? 0 : after - (performance.now() - newest);
    if (left <= 0) {
      void this.lane();
      return;
    }
    if (this.laneTimer === undefined) {
      this.laneTimer = setTimeout(() => {
        this.laneTimer = undefined;
        this.openLane();
      }, Math.ceil(left));
    }
  }

  private async lane(): Promise<void> {
    this.running++;
    const since = { at: performance.now(), slow: false };
    this.groupsSince.add(since);
    try {
      for (let first = true; ; first = false) {
        // between its transactions (never before the first: a lane opens for work that waits)
        if (!first) await this.linger();
        if (this.pending.length === 0) break;
        since.at = performance.now();
        const taken = apartFromSlow(
          takeFairGroup(
            this.pending.map((s) => s.commands),
            this.options.maxCommands,
          ),
          (i) => this.pending[i]!.commands.some(isReactionGroup),
        );
        since.slow = this.pending[taken[0]!]!.commands.some(isReactionGroup);
        const group = taken.map((i) => this.pending[i]!);
        for (const i of [...taken].sort((a, b) => b - a)) this.pending.splice(i, 1);
        for (const s of group) this.pendingCommands -= s.commands.length;
        const timings = this.options.timings;
        if (timings) {
          const now = performance.now();
          for (const s of group) timings.laneWaitSeconds.observe((now - s.submittedAt) / 1000);
        }
        // others waiting may now take a lane of their own (see openLane)
        if (since.slow) this.openLane();
        await this.commitGroup(group);
        since.slow = false;
      }
    } finally {
      this.running--;
      this.groupsSince.delete(since);
    }
  }

  /**
   * Under load, waits a moment for more commands before the next transaction (see the header's
   * last guarantee); resolves at once otherwise. One lane lingers at a time; another that would
   * goes at once (it has its own work, and two waiting lanes would take each other's arrivals).
   */
  private linger(): Promise<void> | undefined {
    const options = this.options.linger;
    if (!options || this.lingering) return undefined;
    const now = performance.now();
    const wait = lingerMs(this.pendingCommands, this.arrivals.perMs(now), options);
    if (wait <= 0) return undefined;
    return new Promise((resolve) => {
      // timers fire no sooner than 1 ms: an arrival past the deadline ends the wait earlier
      const timer = setTimeout(() => wake('timed_out'), Math.max(1, Math.ceil(wait)));
      const wake = (end: 'filled' | 'timed_out') => {
        clearTimeout(timer);
        this.lingering = undefined;
        this.options.lingered?.inc({ end });
        resolve();
      };
      this.lingering = { deadline: now + wait, wake };
    });
  }

  private async commitGroup(group: Submission[]): Promise<void> {
    // every command of the group, in submission then command order, with where its result goes
    const flat = group.flatMap((s, at) => s.commands.map((command, index) => ({ command, at, index })));
    const results = group.map(
      (s) =>
        ({
          replies: new Array(s.commands.length),
          frames: [],
          notifications: [],
          logs: [],
          states: new Map(),
        }) as BatchOutcome,
    );
    // channel states after the parts committed so far: a later part plans on top of them
    const committed = new Map<string, ChannelState>();
    const fenced = new Set<number>();
    let attempts = 0;
    // what environments with a spent monthly quota may still store, once a commit met one
    let allowance = new Map<string, QuotaAllowance>();

    const failures = await isolateFailures(
      flat.length,
      async (from, to) => {
        const part = flat.slice(from, to);
        for (let retry = 0, spent = 0; ; retry++) {
          attempts++;
          try {
            const view = new Map<string, ChannelState>();
            for (const { command: c, at } of part) {
              const key = channelKey(c.environmentId, c.channelId);
              const state = committed.get(key) ?? group[at]!.cache.get(key);
              if (state) view.set(key, state);
            }
            const outcome = await this.transaction(
              part.map((p) => p.command),
              view,
              allowance,
            );
            distribute(outcome, part, results, committed);
            return;
          } catch (error) {
            if (error instanceof QuotaError && spent++ < QUOTA_RETRIES) {
              // nothing was written: learn what each environment may still store and plan again
              // (the channel states read stay right, the statement failed before any change)
              allowance = await readAllowance(this.pool, [...new Set(part.map((p) => p.command.environmentId))]);
              retry--;
              continue;
            }
            // whatever the submitters believed about these channels may be stale now
            for (const p of part) {
              const key = channelKey(p.command.environmentId, p.command.channelId);
              committed.delete(key);
              group[p.at]!.cache.delete(key);
            }
            if (error instanceof FenceError) {
              if (retry < FENCE_RETRIES) continue;
              for (let i = from; i < to; i++) fenced.add(i);
            }
            throw error;
          }
        }
      },
      isSplittable,
    );

    failures.forEach((error, i) => {
      if (error === undefined) return;
      const { at, index, command } = flat[i]!;
      const reply = replyForFailure(error, fenced.has(i) && error instanceof FenceError);
      results[at]!.replies[index] = reply;
      const context = { environmentId: command.environmentId, channelId: command.channelId, op: command.op, code: reply.code };
      if (reply.code === 'internal') this.options.log.error({ ...context, err: error }, 'a command failed its commit');
      else this.options.log.warn({ ...context, sqlState: (error as { code?: unknown }).code }, 'a command failed its commit');
    });
    const failed = failures.filter((e) => e !== undefined).length;
    if (attempts > 1) this.options.isolation?.inc({ event: 'transaction' }, attempts - 1);
    if (failed > 0) this.options.isolation?.inc({ event: 'failed_alone' }, failed);
    group.forEach((s, at) => s.resolve(results[at]!));
  }

  /** The notice never fails a commit that happened: a lost one is the reconciler's to catch. */
  private notifyDeliveries(deliveries: NoticeDelivery[]): void {
    try {
      this.options.deliveriesCommitted?.(deliveries);
    } catch (error) {
      this.options.log.warn({ err: error, deliveries: deliveries.length }, 'could not publish the webhook notice; the reconciler will send them');
    }
  }

  private async transaction(commands: NodeCommand[], view: Map<string, ChannelState>, allowance: Map<string, QuotaAllowance>): Promise<BatchOutcome> {
    const started = performance.now();
    const client = await this.pool.connect();
    // one statement needs no begin/commit: it is atomic on its own (commit-batch.ts)
    const transaction = !writesInOneStatement(commands, view);
    let broken = false;
    try {
      if (transaction) await client.query('begin');
      const outcome = await writeBatch(client, commands, view, this.webhooks, this.options.pushLeaseMs, allowance);
      if (transaction) await client.query('commit');
      const timings = this.options.timings;
      if (timings) {
        timings.transactionSeconds.observe((performance.now() - started) / 1000);
        timings.transactionCommands.observe(commands.length);
      }
      if (outcome.deliveries) this.notifyDeliveries(outcome.deliveries);
      if (outcome.quotaCounts) this.options.quotaCounted?.(outcome.quotaCounts);
      if (this.options.usage) countWebhookEvents(this.options.usage, outcome);
      const dropped = outcome.mentionsDropped;
      if (dropped) {
        if (dropped.unreadable > 0) this.options.mentionsDropped?.inc({ reason: 'unreadable' }, dropped.unreadable);
        if (dropped.overCap > 0) this.options.mentionsDropped?.inc({ reason: 'over_cap' }, dropped.overCap);
      }
      return outcome;
    } catch (error) {
      if (transaction) {
        await client.query('rollback').catch(() => {
          broken = true;
        });
      }
      throw error;
    } finally {
      client.release(broken);
    }
  }
}

/** Hands each submitter its part of a committed outcome (indices back to the submitter's own). */
function distribute(
  outcome: BatchOutcome,
  part: { command: NodeCommand; at: number; index: number }[],
  results: BatchOutcome[],
  committed: Map<string, ChannelState>,
): void {
  outcome.replies.forEach((reply, i) => (results[part[i]!.at]!.replies[part[i]!.index] = reply));
  const move = <T extends { index: number }>(items: T[], pick: (r: BatchOutcome) => T[]) => {
    for (const item of items) pick(results[part[item.index]!.at]!).push({ ...item, index: part[item.index]!.index });
  };
  move(outcome.frames, (r) => r.frames);
  move(outcome.notifications, (r) => r.notifications);
  move(outcome.logs, (r) => r.logs);
  const ownerOf = new Map(part.map((p) => [channelKey(p.command.environmentId, p.command.channelId), p.at]));
  for (const [key, state] of outcome.states) {
    committed.set(key, state);
    const at = ownerOf.get(key);
    if (at !== undefined) results[at]!.states.set(key, state);
  }
}
