/**
 * The actor of one partition: the single writer of every channel hashed to it. One mailbox,
 * one loop; the loop is the only code that assigns seq, writes and publishes. A command is
 * checked (command-check.ts) before it enters the mailbox, and the mailbox is fair across
 * environments (fair-mailbox.ts): one environment's flood is refused and waits, not another's.
 *
 * States and transitions:
 *   running   → commands from the partition subject (queue group) enter the mailbox; the loop
 *               takes up to MAX_BATCH, round-robin over environments, and commits them in one transaction
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
import { deadlineOf, encodeJson, logListened, publishLogs, type LogLevel, type Msg, type NatsConnection, type Subjects, type Subscription } from '@rtm/bus';
import type { NodeCommitter } from './node-committer.ts';
import { decodeRequest, ReplyCollector } from './command-request.ts';
import { FairMailbox } from './fair-mailbox.ts';
import type { Logger } from '@rtm/ops';
import { SUMMARY_INTERVAL_MS, type CommandReply } from '@rtm/schemas';
import { isGroupReply, isReactionGroup, type NodeCommand, type NodeReply, type ReactCommand } from './batch-plan.ts';
import { ReactionGate } from './reaction-gate.ts';
import { ephemeralBatch, ephemeralOnly, type BatchOutcome, type ChannelState, type PublishCommand } from './commit-batch.ts';
import type { Usage } from '@rtm/usage';
import { countCommitted } from './usage-count.ts';

export interface ActorDeps {
  /** Merges this actor's batches with other actors' into node-wide transactions. */
  committer: NodeCommitter;
  nc: NatsConnection;
  subjects: Subjects;
  log: Logger;
  maxBatch: number;
  metrics: { batchSize: Histogram; commitSeconds: Histogram; messages: Counter<'outcome'> };
  /** The node's usage meter (libs/usage): what each batch committed is counted after commit. */
  usage: Usage;
}

interface Pending {
  command: NodeCommand;
  /** Answers this command (its slot of the request's one reply). */
  respond: (reply: NodeReply) => void;
  /** When the caller stops waiting (it has then answered 503 "outcome unknown"). */
  expiresAt: number | undefined;
}

/** Commands one environment may have waiting in a partition's mailbox, in batches (503 past it). */
export const MAILBOX_ENVIRONMENT_BATCHES = 10;
/** Mailbox length, in batches, past which only environments under their equal share are admitted. */
export const MAILBOX_BATCHES = 20;

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
  /** Reactions wait here for their message's next group (reaction-gate.ts). */
  private readonly reactions = new ReactionGate<Pending & { command: ReactCommand }>((key, group) => this.releaseReactions(key, group), SUMMARY_INTERVAL_MS);

  constructor(partition: number, deps: ActorDeps) {
    this.partition = partition;
    this.deps = deps;
    this.mailbox = new FairMailbox({ perEnvironment: deps.maxBatch * MAILBOX_ENVIRONMENT_BATCHES, total: deps.maxBatch * MAILBOX_BATCHES });
  }

  /** Subscribes and starts the loop; resolves once the server knows the subscription. */
  async start(): Promise<void> {
    this.subscription = this.deps.nc.subscribe(this.deps.subjects.partition(this.partition), {
      queue: OWNER_QUEUE,
      callback: (error, msg) => {
        if (!error) this.handle(msg.data, deadlineOf(msg, Date.now()), (reply) => respond(msg, reply));
      },
    });
    this.loopDone = this.loop();
    await this.deps.nc.flush();
  }

  async drain(): Promise<void> {
    if (this.state !== 'running') return this.loopDone;
    this.state = 'draining';
    await this.subscription?.drain().catch(() => {});
    this.reactions.flush();
    this.wake?.();
    await this.loopDone;
  }

  abort(): void {
    if (this.state === 'stopped') return;
    this.state = 'stopped';
    this.subscription?.unsubscribe();
    for (const pending of [...this.mailbox.drain(), ...this.reactions.abandon()]) {
      pending.respond({ ok: false, code: 'unavailable', reason: 'the channel owner moved; retry' });
    }
    this.wake?.();
  }

  /** Whether requests for this partition are taken here now (not draining, not stopped). */
  get running(): boolean {
    return this.state === 'running';
  }

  /**
   * A request: one command, or several for this partition (command-request.ts), answered once
   * through `send`; from the partition's subject, or a part of a node bundle (node-inbox.ts).
   * `expiresAt`: when the caller stops waiting, on this process's clock.
   */
  handle(data: Uint8Array, expiresAt: number | undefined, send: (reply: CommandReply | CommandReply[]) => void): void {
    const decoded = decodeRequest(data);
    if (!decoded.ok) {
      this.deps.metrics.messages.inc({ outcome: 'invalid_request' });
      return send({ ok: false, code: 'invalid_request', reason: decoded.reason });
    }
    const collector = new ReplyCollector(decoded.commands.length, decoded.many, send);
    let woken = false;
    decoded.commands.forEach((checked, index) => {
      const answer = collector.slot(index);
      if (!checked.ok) {
        this.deps.metrics.messages.inc({ outcome: 'invalid_request' });
        return answer({ ok: false, code: 'invalid_request', reason: checked.reason });
      }
      const command = checked.command;
      if (this.state === 'stopped') return answer({ ok: false, code: 'unavailable', reason: 'the channel owner moved; retry' });
      if (command.op === 'react') {
        if (this.reactions.size >= this.deps.maxBatch * MAILBOX_BATCHES) {
          this.deps.metrics.messages.inc({ outcome: 'overloaded' });
          return answer({ ok: false, code: 'unavailable', reason: 'the channel owner is overloaded with reactions; retry' });
        }
        this.reactions.offer({ command, respond: answer as (reply: NodeReply) => void, expiresAt });
        return;
      }
      if (!this.mailbox.offer(command.environmentId, { command, respond: answer as (reply: NodeReply) => void, expiresAt })) {
        this.deps.metrics.messages.inc({ outcome: 'overloaded' });
        return answer({ ok: false, code: 'unavailable', reason: 'the channel owner is overloaded by this environment; retry' });
      }
      woken = true;
    });
    if (!woken) return;
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  private async loop(): Promise<void> {
    for (;;) {
      if (this.state === 'stopped') return;
      if (this.mailbox.length === 0) {
        if (this.state === 'draining') {
          this.state = 'stopped';
          return;
        }
        await new Promise<void>((resolve) => (this.wake = resolve));
        continue;
      }
      const batch = this.dropExpired(this.mailbox.take(this.deps.maxBatch));
      // reaction groups commit after the commands taken with them, in a batch of their own: those
      // (publishes, mostly) keep the quick path (one statement, no transaction) and are answered
      // without waiting for the groups' reads and summaries. Only their order changes, as the
      // reaction gate already changes it (reactions wait for their message's next group).
      const groups = batch.filter((pending) => isReactionGroup(pending.command));
      if (groups.length > 0 && groups.length < batch.length) {
        await this.process(batch.filter((pending) => !isReactionGroup(pending.command)));
        await this.process(groups);
      } else if (batch.length > 0) await this.process(batch);
    }
  }

  /**
   * Commands whose caller already gave up (and told its client the outcome is unknown) are not
   * committed: after an overload or a stall the actor catches up instead of writing minutes-old
   * messages nobody is waiting for. Nothing of them was written, so a retry is clean.
   */
  private dropExpired<P extends Pending>(batch: P[]): P[] {
    const now = Date.now();
    const live = batch.filter((pending) => pending.expiresAt === undefined || pending.expiresAt > now);
    if (live.length < batch.length) {
      for (const pending of batch) {
        if (pending.expiresAt !== undefined && pending.expiresAt <= now) {
          pending.respond({ ok: false, code: 'unavailable', reason: 'the command waited past its deadline; nothing was written' });
        }
      }
      this.deps.metrics.messages.inc({ outcome: 'expired' }, batch.length - live.length);
    }
    return live;
  }

  private async process(batch: Pending[]): Promise<void> {
    const commands = batch.map((p) => p.command);
    const started = process.hrtime.bigint();
    // never rejects: a command that failed its commit has its own error reply (node-committer.ts)
    const outcome = await this.commit(commands);
    this.deps.metrics.batchSize.observe(batch.length);
    this.deps.metrics.commitSeconds.observe(Number(process.hrtime.bigint() - started) / 1e9);
    for (const [key, state] of outcome.states) this.cache.set(key, state);
    countCommitted(this.deps.usage, commands, outcome);

    // after commit: frames, notifications, logs, then replies (a frame may beat its ack, never precede its commit)
    const { nc, subjects } = this.deps;
    for (const out of outcome.frames) nc.publish(subjects.channel(out.environmentId, out.channelId), out.bytes);
    for (const n of outcome.notifications) nc.publish(subjects.user(n.environmentId, n.userId), encodeJson(n.frame));
    // the live log: one bus message per environment of the batch, not one per event
    const logs = new Map<string, { level: LogLevel; event: string; data?: Record<string, unknown> }[]>();
    const log = (environmentId: string, entry: { level: LogLevel; event: string; data?: Record<string, unknown> }) => {
      const list = logs.get(environmentId);
      if (list) list.push(entry);
      else logs.set(environmentId, [entry]);
    };
    // (only for environments someone listens to: libs/bus log-interest.ts)
    for (const entry of outcome.logs)
      if (logListened(nc, entry.environmentId)) log(entry.environmentId, { level: 'info', event: entry.event, data: entry.data });
    let ok = 0;
    batch.forEach((pending, index) => {
      const reply = outcome.replies[index]!;
      pending.respond(reply);
      if (isGroupReply(reply)) {
        for (const item of reply.result.items) if (item.ok) ok++;
      } else if (reply.ok) ok++;
      else {
        this.deps.metrics.messages.inc({ outcome: reply.code });
        const c = pending.command;
        log(c.environmentId, { level: 'error', event: `${c.op}.failed`, data: { channelId: c.channelId, code: reply.code } });
      }
    });
    for (const [environmentId, entries] of logs) publishLogs(nc, subjects, environmentId, entries);
    this.deps.metrics.messages.inc({ outcome: 'ok' }, ok);
  }

  /**
   * A message's held reactions enter the mailbox as one group: each answered from the group's
   * reply; the gate learns when the group is done, to time the message's next one.
   */
  private releaseReactions(key: string, group: (Pending & { command: ReactCommand })[]): void {
    const { environmentId, channelId, messageId } = group[0]!.command;
    const items = this.dropExpired(group) as (Pending & { command: ReactCommand })[];
    const done = (reply: NodeReply) => {
      items.forEach((pending, i) => pending.respond(isGroupReply(reply) ? reply.result.items[i]! : reply));
      this.reactions.committed(key);
    };
    if (items.length === 0) return this.reactions.committed(key);
    const command: NodeCommand = { op: 'reactions', environmentId, channelId, messageId, items: items.map((p) => p.command) };
    if (this.state === 'stopped' || !this.mailbox.offer(environmentId, { command, respond: done, expiresAt: undefined })) {
      return done({ ok: false, code: 'unavailable', reason: 'the channel owner is overloaded by this environment; retry' });
    }
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  private commit(commands: NodeCommand[]): Promise<BatchOutcome> {
    if (ephemeralOnly(commands, this.cache)) return Promise.resolve(ephemeralBatch(commands as PublishCommand[], this.cache));
    return this.deps.committer.commit(commands, this.cache);
  }
}

function respond(msg: Msg, reply: CommandReply | CommandReply[]): void {
  try {
    msg.respond(encodeJson(reply));
  } catch {
    // the connection is closing; the requester times out and answers 503
  }
}
