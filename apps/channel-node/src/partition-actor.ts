/**
 * The actor of one partition: the single writer of every channel hashed to it. One mailbox,
 * one loop; the loop is the only code that assigns seq, writes and publishes.
 *
 * States and transitions:
 *   running   → commands from the partition subject (queue group) are checked (command-rules.ts)
 *               and enter the mailbox (fair-mailbox.ts: one queue per environment); the loop
 *               takes up to MAX_BATCH, round-robin over environments, and commits it in one transaction
 *               (commit-batch.ts; node-committer.ts may merge it with other actors' batches of
 *               the same moment), then publishes frames, notifications and logs, then replies.
 *   running   → draining  (drain(): rebalance gives the partition away, or SIGTERM). The
 *               subscription is drained (messages already received still enter the mailbox),
 *               then the loop empties the mailbox and stops.
 *   draining  → stopped   (loop exits; the owner may now unlock the partition).
 *   running | draining → stopped  (abort(): the lock connection broke, so another node may
 *               already own the partition; the mailbox is answered `unavailable`, nothing more is
 *               taken; a batch in flight still ends, and the Postgres fence keeps it harmless).
 */
import type { Counter, Histogram } from 'prom-client';
import { deadlineOf, decodeJson, encodeJson, publishLog, type Msg, type NatsConnection, type Subjects, type Subscription } from '@rtm/bus';
import { isConnectionError } from '@rtm/db';
import type { NodeCommitter } from './node-committer.ts';
import type { Logger } from '@rtm/ops';
import type { ChannelCommand, CommandReply } from '@rtm/schemas';
import { commandProblem } from './command-rules.ts';
import { FairMailbox } from './fair-mailbox.ts';
import { commitIsolating } from './commit-isolating.ts';
import {
  FenceError,
  ephemeralBatch,
  ephemeralOnly,
  type BatchOutcome,
  type ChannelState,
  type PublishCommand,
} from './commit-batch.ts';

export interface ActorDeps {
  /** Merges this actor's batches with other actors' into node-wide transactions. */
  committer: NodeCommitter;
  nc: NatsConnection;
  subjects: Subjects;
  log: Logger;
  maxBatch: number;
  metrics: { batchSize: Histogram; commitSeconds: Histogram; messages: Counter<'outcome'> };
}

interface Pending {
  command: ChannelCommand;
  msg: Msg;
  /** When the caller stops waiting (it has then answered 503 "outcome unknown"). */
  expiresAt: number | undefined;
}

/**
 * Commands one environment may have waiting, in batches, past which its new commands are refused
 * (503) instead of queued; the whole mailbox holds at most four times that.
 */
const MAILBOX_BATCHES = 20;

type State = 'running' | 'draining' | 'stopped';

export const OWNER_QUEUE = 'owners';

export class PartitionActor {
  readonly partition: number;
  private readonly deps: ActorDeps;
  private state: State = 'running';
  private readonly mailbox: FairMailbox<Pending>;
  private wake: (() => void) | undefined;
  private subscription: Subscription | undefined;
  private loopDone: Promise<void> | undefined;
  /** last_seq and pk of channels this actor wrote or read; dropped on any doubt. */
  private readonly cache = new Map<string, ChannelState>();

  constructor(partition: number, deps: ActorDeps) {
    this.partition = partition;
    this.deps = deps;
    this.mailbox = new FairMailbox({ perKey: deps.maxBatch * MAILBOX_BATCHES, total: deps.maxBatch * MAILBOX_BATCHES * 4 });
  }

  /** Subscribes and starts the loop; resolves once the server knows the subscription. */
  async start(): Promise<void> {
    this.subscription = this.deps.nc.subscribe(this.deps.subjects.partition(this.partition), {
      queue: OWNER_QUEUE,
      callback: (error, msg) => {
        if (!error) this.enqueue(msg);
      },
    });
    this.loopDone = this.loop();
    await this.deps.nc.flush();
  }

  async drain(): Promise<void> {
    if (this.state !== 'running') return this.loopDone;
    this.state = 'draining';
    await this.subscription?.drain().catch(() => {});
    this.wake?.();
    await this.loopDone;
  }

  abort(): void {
    if (this.state === 'stopped') return;
    this.state = 'stopped';
    this.subscription?.unsubscribe();
    for (const pending of this.mailbox.drain()) {
      respond(pending.msg, { ok: false, code: 'unavailable', reason: 'the channel owner moved; retry' });
    }
    this.wake?.();
  }

  private enqueue(msg: Msg): void {
    let command: ChannelCommand;
    try {
      command = decodeJson<ChannelCommand>(msg.data);
    } catch {
      return respond(msg, { ok: false, code: 'invalid_request', reason: 'undecodable command' });
    }
    const problem = commandProblem(command);
    if (problem !== null) {
      this.deps.metrics.messages.inc({ outcome: 'invalid' });
      return respond(msg, { ok: false, code: 'invalid_request', reason: problem });
    }
    if (this.state === 'stopped') {
      return respond(msg, { ok: false, code: 'unavailable', reason: 'the channel owner moved; retry' });
    }
    if (!this.mailbox.push(command.environmentId, { command, msg, expiresAt: deadlineOf(msg, Date.now()) })) {
      this.deps.metrics.messages.inc({ outcome: 'overloaded' });
      return respond(msg, { ok: false, code: 'unavailable', reason: 'the channel owner is overloaded; retry' });
    }
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  private async loop(): Promise<void> {
    for (;;) {
      if (this.state === 'stopped') return;
      if (this.mailbox.size === 0) {
        if (this.state === 'draining') {
          this.state = 'stopped';
          return;
        }
        await new Promise<void>((resolve) => (this.wake = resolve));
        continue;
      }
      const batch = this.dropExpired(this.mailbox.take(this.deps.maxBatch));
      if (batch.length > 0) await this.process(batch);
    }
  }

  /**
   * Commands whose caller already gave up (and told its client the outcome is unknown) are not
   * committed: after an overload or a stall the actor catches up instead of writing minutes-old
   * messages nobody is waiting for. Nothing of them was written, so a retry is clean.
   */
  private dropExpired(batch: Pending[]): Pending[] {
    const now = Date.now();
    const live = batch.filter((pending) => pending.expiresAt === undefined || pending.expiresAt > now);
    if (live.length < batch.length) {
      for (const pending of batch) {
        if (pending.expiresAt !== undefined && pending.expiresAt <= now) {
          respond(pending.msg, { ok: false, code: 'unavailable', reason: 'the command waited past its deadline; nothing was written' });
        }
      }
      this.deps.metrics.messages.inc({ outcome: 'expired' }, batch.length - live.length);
    }
    return live;
  }

  private async process(batch: Pending[]): Promise<void> {
    const commands = batch.map((p) => p.command);
    const started = process.hrtime.bigint();
    let outcome: BatchOutcome;
    try {
      // one command whose statement fails must not fail its neighbours: it is bisected out
      outcome = await commitIsolating(commands, {
        attempt: (subset) => this.commit([...subset]),
        isSystemic: (error) => isConnectionError(error) || error instanceof FenceError,
        failed: (command, error) => {
          this.deps.log.error({ err: error, partition: this.partition, op: command.op, channelId: command.channelId }, 'a command failed alone');
          this.deps.metrics.messages.inc({ outcome: 'internal' });
          return { ok: false, code: 'internal', reason: 'the command could not be stored' };
        },
      });
    } catch (error) {
      this.deps.log.error({ err: error, partition: this.partition, size: batch.length }, 'group commit failed');
      const code = isConnectionError(error) || error instanceof FenceError ? 'unavailable' : 'internal';
      for (const pending of batch) {
        const reason =
          error instanceof FenceError
            ? 'another writer is moving this channel (owner hand-over); retry with an idempotencyKey'
            : code === 'unavailable'
              ? 'the database is not reachable; retry'
              : undefined;
        respond(pending.msg, { ok: false, code, reason });
        const c = pending.command;
        publishLog(this.deps.nc, this.deps.subjects, c.environmentId, 'error', `${c.op}.failed`, {
          channelId: c.channelId,
          code,
        });
      }
      this.deps.metrics.messages.inc({ outcome: code }, batch.length);
      return;
    }
    this.deps.metrics.batchSize.observe(batch.length);
    this.deps.metrics.commitSeconds.observe(Number(process.hrtime.bigint() - started) / 1e9);
    this.deps.metrics.messages.inc({ outcome: 'ok' }, batch.length);
    for (const [key, state] of outcome.states) this.cache.set(key, state);

    // after commit: frames, notifications, logs, then replies (a frame may beat its ack, never precede its commit)
    const { nc, subjects } = this.deps;
    for (const out of outcome.frames) nc.publish(subjects.channel(out.environmentId, out.channelId), encodeJson(out.frame));
    for (const n of outcome.notifications) nc.publish(subjects.user(n.environmentId, n.userId), encodeJson(n.frame));
    for (const log of outcome.logs) publishLog(nc, subjects, log.environmentId, 'info', log.event, log.data);
    batch.forEach((pending, index) => respond(pending.msg, outcome.replies[index]!));
  }

  private commit(commands: ChannelCommand[]): Promise<BatchOutcome> {
    if (ephemeralOnly(commands, this.cache)) return Promise.resolve(ephemeralBatch(commands as PublishCommand[], this.cache));
    return this.deps.committer.commit(commands, this.cache);
  }
}

function respond(msg: Msg, reply: CommandReply): void {
  try {
    msg.respond(encodeJson(reply));
  } catch {
    // the connection is closing; the requester times out and answers 503
  }
}
